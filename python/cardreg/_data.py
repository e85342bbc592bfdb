"""From numpy arrays and pandas DataFrames to the buffers libcardreg reads.

X is read in place when it is a float64 numpy array in C order (layout 0)
or Fortran order (layout 1), or a DataFrame whose columns are all float64
(pandas keeps them as one column-major block, passed as layout 1). Any
other X is converted once to a C-ordered float64 array.

A scipy.sparse X (a matrix or an array: CSR, CSC, COO, ...) is never
densified: it is converted once to CSC arrays (SparseDesign), which the
library reads in place.

A DataFrame column of dtype ``category`` is a factor: its categories, in
order, are the levels (categories no row uses are dropped), any text
exactly as written ("NA", "", " pad "); an ordered categorical is an
ordinal factor. Every other column must be numeric.
"""

import numbers
import sys

import numpy as np

try:  # pandas is optional: numpy arrays need no pandas
    import pandas as _pd
except ImportError:  # pragma: no cover
    _pd = None

ROW_MAJOR, COL_MAJOR = 0, 1


def is_dataframe(X):
    return _pd is not None and isinstance(X, _pd.DataFrame)


def _is_categorical(dtype):
    return _pd is not None and isinstance(dtype, _pd.CategoricalDtype)


def has_factors(X):
    """Whether X is a DataFrame with at least one category column."""
    return is_dataframe(X) and any(_is_categorical(t) for t in X.dtypes)


def _addr(a):
    return None if a is None else a.ctypes.data


class FactorSpec:
    """One factor: its column name, levels (as the library names them),
    the categories they come from, and whether it is ordinal."""

    def __init__(self, name, categories, ordinal):
        self.name = name
        self.categories = list(categories)
        # Any text is a level, exactly as written ("NA", "", " pad ");
        # only text UTF-8 cannot hold (a lone surrogate) is refused: the
        # library would name its column otherwise.
        self.levels = [_level_name(c) for c in self.categories]
        for lv in self.levels:
            try:
                lv.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("column %r: level %r is not text UTF-8 can "
                                 "hold (a lone surrogate)" % (name, lv))
        if len(set(self.levels)) != len(self.levels):
            raise ValueError("column %r: two categories have the same text %r"
                             % (name, _first_duplicate(self.levels)))
        self.ordinal = bool(ordinal)
        self._index = {}
        for i, c in enumerate(self.categories):
            self._index.setdefault(c, i)
            self._index.setdefault(self.levels[i], i)

    def options(self):
        return {"name": self.name, "levels": self.levels,
                "ordinal": self.ordinal}

    def codes_of(self, values):
        """The codes of values (any sequence) in this factor's levels; a
        missing or unseen value is a ValueError naming column and level."""
        if _is_categorical(getattr(values, "dtype", None)):
            cats = list(values.cat.categories)
            table = np.array([self._lookup(c) for c in cats]
                             + [-1], dtype=np.int64)
            raw = np.asarray(values.cat.codes, dtype=np.int64)
            codes = table[raw]  # raw -1 (missing) maps to the sentinel -1
            bad = np.flatnonzero(codes < 0)
            if bad.size:
                i = bad[0]
                self._fail(None if raw[i] < 0 else cats[raw[i]], i)
            return codes.astype(np.int32)
        vals = list(values)
        codes = np.empty(len(vals), dtype=np.int32)
        for i, v in enumerate(vals):
            c = self._lookup(v)
            if c < 0:
                self._fail(v, i)
            codes[i] = c
        return codes

    def _lookup(self, v):
        """The code of value v (by value, else by its text), or -1."""
        if _missing(v):
            return -1
        try:
            i = self._index.get(v)
        except TypeError:
            i = None
        if i is None:
            i = self._index.get(_level_name(v), -1)
        return i

    def _fail(self, value, row):
        if value is None or _missing(value):
            raise ValueError(
                "column %r: row %d (from 0) has a missing value; a factor "
                "needs a level in every row" % (self.name, row))
        raise ValueError(
            "column %r: level %r (row %d, from 0) was not seen when the "
            "model was fitted; its levels are %s"
            % (self.name, value, row, ", ".join(self.levels)))


def _missing(v):
    if v is None:
        return True
    try:
        return bool(v != v)  # NaN
    except Exception:  # pragma: no cover
        return False


def _level_name(c):
    if isinstance(c, str):
        return c
    if isinstance(c, numbers.Integral):
        return str(int(c))
    if isinstance(c, float) and c.is_integer():
        return str(int(c))
    return str(c)


def _first_duplicate(xs):
    seen = set()
    for x in xs:
        if x in seen:
            return x
        seen.add(x)
    return None


class Design:
    """The buffers of one X: the numeric matrix (possibly X itself), its
    layout, the factors' code matrix and the options describing them.

    Attributes: ``x`` (n x p float64, C or F order), ``layout``, ``n``,
    ``p``, ``names`` (numeric columns), ``codes`` (n x nfactors int32,
    Fortran order, or None), ``factors`` (FactorSpec list), ``columns``
    (X's columns in order, for a DataFrame).
    """

    sparse = False

    def __init__(self, x, layout, names, codes, factors, columns=None):
        self.x = x
        self.layout = layout
        self.n, self.p = x.shape
        self.names = list(names)
        self.codes = codes
        self.factors = factors
        self.columns = columns

    @property
    def nfactors(self):
        return len(self.factors)

    def x_addr(self):
        return _addr(self.x)

    def codes_addr(self):
        return _addr(self.codes)

    def forget(self):
        """Drop the buffers (a result keeps the layout, not the data)."""
        self.x = self.codes = None

    def options(self):
        """The data's description for the options JSON."""
        o = {"names": self.names}
        if self.factors:
            o["factors"] = [f.options() for f in self.factors]
        return o


def is_sparse(X):
    """Whether X is a scipy.sparse matrix or array."""
    sp = sys.modules.get("scipy.sparse")  # no scipy imported: not sparse
    return sp is not None and sp.issparse(X)


def check_dense(X, what="X", allow_scipy=False):
    """Refuse what cannot be read: a sparse vector (y, weights, offset:
    np.asarray would make a 0-dimensional object array of a scipy matrix),
    or, for X (allow_scipy), a DataFrame of pandas sparse columns, with
    what to do."""
    if is_sparse(X) and not allow_scipy:
        raise TypeError(
            "%s is sparse (%s): pass a dense array (%s.toarray())"
            % (what, type(X).__name__, what))
    if is_dataframe(X) and any(isinstance(t, _pd.SparseDtype)
                               for t in X.dtypes):
        raise TypeError(
            "%s is a DataFrame of pandas sparse columns: pass it as a "
            "scipy.sparse matrix (%s.sparse.to_coo(), read without "
            "densifying) or dense (%s.sparse.to_dense())" % (what, what, what))


_INT32_MAX = 2 ** 31 - 1


class SparseDesign:
    """The CSC arrays of a sparse X, as the library reads them:
    ``indptr`` (p+1 int64), ``indices`` (int32 row indices, sorted within
    each column, no repeats), ``data`` (float64), ``n``, ``p``, ``names``.
    No factors."""

    sparse = True
    factors = []
    codes = None
    columns = None
    nfactors = 0

    def __init__(self, X, names):
        self.indptr, self.indices, self.data, self.n, self.p = csc_arrays(X)
        self.names = list(names)

    def addrs(self):
        """The arrays' addresses (colstart, rowind, values)."""
        return (self.indptr.ctypes.data, _addr(self.indices),
                _addr(self.data))

    def codes_addr(self):
        return None

    def forget(self):
        """Drop the arrays (a result keeps the layout, not the data)."""
        self.indptr = self.indices = self.data = None

    def options(self):
        return {"names": self.names}


def csc_arrays(X, what="X"):
    """A scipy.sparse X (any format, matrix or array) as CSC arrays
    (indptr int64, indices int32, data float64, n, p), converted once and
    never densified. X itself is never written: a CSC X in canonical form
    (sorted row indices, no repeats) of those dtypes is read in place;
    otherwise a copy is converted, its repeated entries summed and its
    indices sorted. int64 indices are narrowed when they fit (a row index
    beyond 2**31 - 1 is refused). Explicit zeros are kept (stored, worth
    nothing)."""
    if len(X.shape) != 2:
        raise ValueError("%s must be 2-dimensional (n rows x p columns); "
                         "got shape %s" % (what, X.shape))
    n, p = X.shape
    if n > _INT32_MAX:
        raise ValueError("%s has %d rows: a sparse X holds at most 2**31 - 1 "
                         "(the library's row indices are int32)" % (what, n))
    if X.dtype.kind not in "fiub":
        raise ValueError("%s must hold real numbers; its dtype is %s"
                         % (what, X.dtype))
    A = X.tocsc()
    if not _canonical(A.indptr, A.indices):
        if _shares(A, X):
            A = A.copy()  # the user's matrix is not ours to sort
        A.sum_duplicates()  # sums repeats and sorts each column's rows
    ind = A.indices
    if ind.dtype != np.int32 and ind.size:
        lo, hi = int(ind.min()), int(ind.max())
        if lo < 0 or hi > _INT32_MAX:
            raise ValueError("%s has the row index %d, outside 0..%d"
                             % (what, lo if lo < 0 else hi, n - 1))
    indices = np.ascontiguousarray(ind, dtype=np.int32)
    indptr = np.ascontiguousarray(A.indptr, dtype=np.int64)
    data = np.ascontiguousarray(A.data, dtype=np.float64)
    return indptr, indices, data, n, p


def _canonical(indptr, indices):
    """Whether each column's row indices increase strictly: a drop or a
    repeat is allowed only where a column starts. Read only (scipy's
    has_canonical_format would cache a flag on the matrix)."""
    if indices.size < 2:
        return True
    bad = np.flatnonzero(np.diff(indices) <= 0) + 1
    return bad.size == 0 or bool(np.isin(bad, indptr[1:-1]).all())


def _shares(A, X):
    """Whether A holds any array of X's."""
    if A is X:
        return True
    for name in ("data", "indices", "indptr", "row", "col"):
        a, x = getattr(A, name, None), getattr(X, name, None)
        if a is not None and x is not None and np.may_share_memory(a, x):
            return True
    return False


def check_columns(df):
    """Refuse a DataFrame whose column names repeat: each coefficient,
    level group and cluster is named by its column."""
    names = [str(c) for c in df.columns]
    if len(set(names)) != len(names):
        seen, dup = set(), []
        for c in names:
            if c in seen and c not in dup:
                dup.append(c)
            seen.add(c)
        raise ValueError(
            "X has duplicate column names %s: cardreg names each "
            "coefficient by its column; rename or drop the duplicates"
            % ", ".join(map(repr, dup)))


def as_matrix(X, what="X"):
    """X as a 2-d float64 array, with no copy when X is already a float64
    array in C or Fortran order. Returns (array, layout)."""
    check_dense(X, what)
    a = X if isinstance(X, np.ndarray) else np.asarray(X)
    if a.ndim != 2:
        raise ValueError("%s must be 2-dimensional (n rows x p columns); got "
                         "%d dimension(s)" % (what, a.ndim))
    if a.dtype == np.float64:
        if a.flags.c_contiguous:
            return a, ROW_MAJOR
        if a.flags.f_contiguous:
            return a, COL_MAJOR
    if a.dtype.kind not in "fiub":
        try:
            a = a.astype(np.float64)
        except (TypeError, ValueError) as e:
            raise ValueError("%s must hold numbers: %s" % (what, e)) from None
    if a.flags.f_contiguous and not a.flags.c_contiguous:
        return np.asfortranarray(a, dtype=np.float64), COL_MAJOR
    return np.ascontiguousarray(a, dtype=np.float64), ROW_MAJOR


def design_of(X, names=None):
    """The Design of X for fitting: factors from category columns; a
    SparseDesign for a scipy.sparse X."""
    if is_dataframe(X):
        return _frame_design(X, None)
    if is_sparse(X):
        return SparseDesign(X, _names(names, X.shape[1]))
    x, layout = as_matrix(X)
    return Design(x, layout, _names(names, x.shape[1]), None, [])


def _names(names, p):
    """The names of p numeric columns: names, or the library's own default
    (x1, x2, ...) given explicitly."""
    if names is None:
        return ["x%d" % (j + 1) for j in range(p)]
    names = [str(s) for s in names]
    if len(names) != p:
        raise ValueError("%d names given for %d columns of X"
                         % (len(names), p))
    return names


def design_like(X, fitted):
    """The Design of new rows X laid out as the fitted design `fitted`:
    the same numeric columns and the same factors, codes into the fitted
    levels (an unseen level is a ValueError naming column and level)."""
    if fitted.factors:
        if not is_dataframe(X):
            raise ValueError("the model was fitted on a DataFrame with factor "
                             "columns (%s); predict needs a DataFrame with "
                             "those columns" % ", ".join(
                                 f.name for f in fitted.factors))
        missing = [c for c in fitted.columns if c not in X.columns]
        if missing:
            raise ValueError("X lacks the column(s) %s the model was fitted on"
                             % ", ".join(map(repr, missing)))
        return _frame_design(X[fitted.columns], fitted)
    if is_sparse(X):
        if len(X.shape) == 2 and X.shape[1] != fitted.p:
            raise ValueError("X has %d columns; the model was fitted on %d"
                             % (X.shape[1], fitted.p))
        return SparseDesign(X, fitted.names)
    if is_dataframe(X):
        if fitted.columns is not None:
            missing = [c for c in fitted.columns if c not in X.columns]
            if missing:
                raise ValueError("X lacks the column(s) %s the model was "
                                 "fitted on" % ", ".join(map(repr, missing)))
            if list(X.columns) != list(fitted.columns):
                X = X[fitted.columns]
        d = _frame_design(X, None)
    else:
        x, layout = as_matrix(X)
        d = Design(x, layout, fitted.names[:x.shape[1]], None, [])
    if d.p != fitted.p:
        raise ValueError("X has %d columns; the model was fitted on %d"
                         % (d.p, fitted.p))
    return d


def _frame_design(df, fitted):
    check_dense(df)
    check_columns(df)
    cols = list(df.columns)
    num, fac = [], []
    for c in cols:
        t = df[c].dtype
        if _is_categorical(t):
            fac.append(c)
        elif t.kind in "fiub":
            num.append(c)
        else:
            raise ValueError(
                "column %r has dtype %s: cardreg reads numeric columns and "
                "pandas 'category' columns (factors); convert it with "
                "pd.to_numeric or .astype('category')" % (c, t))
    if fitted is not None and [str(c) for c in num] != fitted.names:
        raise ValueError("X's numeric columns %s differ from those the model "
                         "was fitted on (%s)" % (num, fitted.names))
    # The numeric block: read in place when every column of X is float64
    # (one block, column-major), else gathered once.
    if not fac and all(df[c].dtype == np.float64 for c in num):
        x = df.to_numpy(dtype=np.float64, copy=False)
    elif num:
        x = np.empty((len(df), len(num)), dtype=np.float64, order="F")
        for j, c in enumerate(num):
            x[:, j] = df[c].to_numpy(dtype=np.float64)
    else:
        x = np.empty((len(df), 0), dtype=np.float64, order="F")
    if x.flags.c_contiguous:
        layout = ROW_MAJOR
    elif x.flags.f_contiguous:
        layout = COL_MAJOR
    else:
        x, layout = np.ascontiguousarray(x), ROW_MAJOR
    codes = None
    specs = []
    if fac:
        codes = np.empty((len(df), len(fac)), dtype=np.int32, order="F")
        for f, c in enumerate(fac):
            s = df[c]
            if fitted is None:
                spec, cd = _new_factor(c, s)
            else:
                spec = fitted.factors[f]
                cd = spec.codes_of(s)
            specs.append(spec)
            codes[:, f] = cd
    return Design(x, layout, [str(c) for c in num], codes, specs,
                  columns=cols)


def _new_factor(name, s):
    """The factor of category column s: used categories in order."""
    raw = np.asarray(s.cat.codes, dtype=np.int64)
    if raw.size and raw.min() < 0:
        i = int(np.flatnonzero(raw < 0)[0])
        raise ValueError("column %r: row %d (from 0) has a missing value; "
                         "a factor needs a level in every row" % (name, i))
    used = np.unique(raw)
    cats = [s.cat.categories[i] for i in used]
    remap = np.full(len(s.cat.categories), -1, dtype=np.int32)
    remap[used] = np.arange(len(used), dtype=np.int32)
    spec = FactorSpec(str(name), cats, s.cat.ordered)
    return spec, remap[raw]


def vector(v, n, what, allow_none=True):
    """v as a contiguous float64 vector of length n (None stays None)."""
    if v is None:
        if allow_none:
            return None
        raise ValueError("%s is required" % what)
    check_dense(v, what)
    a = np.asarray(v, dtype=np.float64)
    if a.ndim == 2 and 1 in a.shape:
        a = a.ravel()
    if a.ndim != 1:
        raise ValueError("%s must be 1-dimensional; got shape %s"
                         % (what, a.shape))
    if a.shape[0] != n:
        raise ValueError("%s has %d values; X has %d rows"
                         % (what, a.shape[0], n))
    return np.ascontiguousarray(a)
