/*
 * A small JSON reader for the documents cardreg_json returns (R has no JSON
 * parser built in, and the package depends on none).
 *
 * JSON to R: an object is a named list; an array of numbers (null among
 * them read as NA) is a double vector, of strings a character vector, of
 * booleans a logical vector, anything else (objects, arrays, a mix, an
 * empty array) a list; a number is a double, a string a UTF-8 string,
 * true/false a logical and null NULL. Malformed input is an R error giving
 * the byte offset.
 */
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include "cardreg_r.h"

#define MAX_DEPTH 256

typedef struct {
    const char *s;
    size_t pos, len;
    int depth;
} reader;

static void NORET fail(reader *r, const char *what)
{
    Rf_error("cardreg: malformed JSON at byte %lld: %s", (long long) r->pos, what);
}

static void skip_ws(reader *r)
{
    while (r->pos < r->len) {
        char c = r->s[r->pos];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') r->pos++;
        else break;
    }
}

static int peek(reader *r)
{
    skip_ws(r);
    return r->pos < r->len ? (unsigned char) r->s[r->pos] : -1;
}

static void expect_word(reader *r, const char *w)
{
    size_t n = strlen(w);
    if (r->len - r->pos < n || strncmp(r->s + r->pos, w, n) != 0)
        fail(r, "unexpected token");
    r->pos += n;
}

static int hex4(reader *r)
{
    if (r->len - r->pos < 4) fail(r, "short \\u escape");
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = r->s[r->pos++];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else fail(r, "bad \\u escape");
    }
    return v;
}

static size_t put_utf8(char *out, unsigned long cp)
{
    if (cp < 0x80) { out[0] = (char) cp; return 1; }
    if (cp < 0x800) {
        out[0] = (char) (0xC0 | (cp >> 6));
        out[1] = (char) (0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char) (0xE0 | (cp >> 12));
        out[1] = (char) (0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char) (0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char) (0xF0 | (cp >> 18));
    out[1] = (char) (0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char) (0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char) (0x80 | (cp & 0x3F));
    return 4;
}

/* A string starting at the opening quote, as a CHARSXP. */
static SEXP read_string(reader *r)
{
    r->pos++; /* the quote */
    size_t start = r->pos, end = start;
    int escaped = 0;
    while (end < r->len && r->s[end] != '"') {
        if (r->s[end] == '\\') { escaped = 1; end++; }
        end++;
    }
    if (end >= r->len) fail(r, "unterminated string");
    if (!escaped) {
        r->pos = end + 1;
        return Rf_mkCharLenCE(r->s + start, (int) (end - start), CE_UTF8);
    }
    /* Escapes never lengthen the text (\uXXXX: 6 bytes for at most 4). */
    char *buf = R_alloc(end - start + 1, 1);
    size_t o = 0;
    while (r->pos < end) {
        char c = r->s[r->pos++];
        if (c != '\\') { buf[o++] = c; continue; }
        c = r->s[r->pos++];
        switch (c) {
        case '"': buf[o++] = '"'; break;
        case '\\': buf[o++] = '\\'; break;
        case '/': buf[o++] = '/'; break;
        case 'b': buf[o++] = '\b'; break;
        case 'f': buf[o++] = '\f'; break;
        case 'n': buf[o++] = '\n'; break;
        case 'r': buf[o++] = '\r'; break;
        case 't': buf[o++] = '\t'; break;
        case 'u': {
            unsigned long cp = (unsigned long) hex4(r);
            if (cp >= 0xD800 && cp < 0xDC00 && r->pos + 6 <= end &&
                r->s[r->pos] == '\\' && r->s[r->pos + 1] == 'u') {
                r->pos += 2;
                unsigned long lo = (unsigned long) hex4(r);
                if (lo >= 0xDC00 && lo < 0xE000)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    cp = 0xFFFD;
            } else if (cp >= 0xD800 && cp < 0xE000) {
                cp = 0xFFFD;
            }
            if (cp == 0) cp = 0xFFFD; /* R strings hold no NUL */
            o += put_utf8(buf + o, cp);
            break;
        }
        default: fail(r, "bad escape");
        }
    }
    r->pos = end + 1;
    return Rf_mkCharLenCE(buf, (int) o, CE_UTF8);
}

static double read_number(reader *r)
{
    const char *p = r->s + r->pos;
    size_t i = 0, n = r->len - r->pos;
    if (i < n && p[i] == '-') i++;
    if (i >= n || !(p[i] >= '0' && p[i] <= '9')) fail(r, "bad number");
    while (i < n && ((p[i] >= '0' && p[i] <= '9') || p[i] == '.' || p[i] == 'e' ||
                     p[i] == 'E' || p[i] == '+' || p[i] == '-'))
        i++;
    char tmp[64];
    char *buf = i < sizeof tmp ? tmp : R_alloc(i + 1, 1);
    memcpy(buf, p, i);
    buf[i] = '\0';
    char *endp = NULL;
    double v = strtod(buf, &endp);
    if (endp != buf + i) fail(r, "bad number");
    r->pos += i;
    return v;
}

/* Value kinds, for simplifying arrays. */
enum { K_NULL, K_NUM, K_STR, K_BOOL, K_OTHER };

static SEXP read_value(reader *r, int *kind);

static SEXP read_array(reader *r)
{
    r->pos++; /* [ */
    if (++r->depth > MAX_DEPTH) fail(r, "nested too deeply");
    R_xlen_t cap = 8, n = 0;
    int *kinds = (int *) R_alloc(cap, sizeof(int));
    PROTECT_INDEX ix;
    SEXP items;
    PROTECT_WITH_INDEX(items = Rf_allocVector(VECSXP, cap), &ix);
    if (peek(r) == ']') {
        r->pos++;
    } else {
        for (;;) {
            int k;
            SEXP v = PROTECT(read_value(r, &k));
            if (n == cap) {
                R_xlen_t ncap = 2 * cap;
                SEXP bigger = PROTECT(Rf_allocVector(VECSXP, ncap));
                for (R_xlen_t i = 0; i < n; i++)
                    SET_VECTOR_ELT(bigger, i, VECTOR_ELT(items, i));
                int *nk = (int *) R_alloc(ncap, sizeof(int));
                memcpy(nk, kinds, n * sizeof(int));
                kinds = nk;
                cap = ncap;
                REPROTECT(items = bigger, ix);
                UNPROTECT(1);
            }
            SET_VECTOR_ELT(items, n, v);
            kinds[n++] = k;
            UNPROTECT(1);
            int c = peek(r);
            if (c == ',') { r->pos++; continue; }
            if (c == ']') { r->pos++; break; }
            fail(r, "expected , or ] in an array");
        }
    }
    r->depth--;

    int nums = 0, strs = 0, bools = 0, nulls = 0, other = 0;
    for (R_xlen_t i = 0; i < n; i++) {
        switch (kinds[i]) {
        case K_NULL: nulls++; break;
        case K_NUM: nums++; break;
        case K_STR: strs++; break;
        case K_BOOL: bools++; break;
        default: other++;
        }
    }
    SEXP out;
    if (n == 0 || other > 0 || (nums > 0) + (strs > 0) + (bools > 0) > 1 ||
        nulls == n) {
        out = PROTECT(Rf_allocVector(VECSXP, n));
        for (R_xlen_t i = 0; i < n; i++) SET_VECTOR_ELT(out, i, VECTOR_ELT(items, i));
    } else if (nums > 0) {
        out = PROTECT(Rf_allocVector(REALSXP, n));
        for (R_xlen_t i = 0; i < n; i++)
            REAL(out)[i] = kinds[i] == K_NULL ? NA_REAL : REAL(VECTOR_ELT(items, i))[0];
    } else if (strs > 0) {
        out = PROTECT(Rf_allocVector(STRSXP, n));
        for (R_xlen_t i = 0; i < n; i++)
            SET_STRING_ELT(out, i, kinds[i] == K_NULL ? NA_STRING
                                                      : STRING_ELT(VECTOR_ELT(items, i), 0));
    } else {
        out = PROTECT(Rf_allocVector(LGLSXP, n));
        for (R_xlen_t i = 0; i < n; i++)
            LOGICAL(out)[i] = kinds[i] == K_NULL ? NA_LOGICAL
                                                 : LOGICAL(VECTOR_ELT(items, i))[0];
    }
    UNPROTECT(2);
    return out;
}

static SEXP read_object(reader *r)
{
    r->pos++; /* { */
    if (++r->depth > MAX_DEPTH) fail(r, "nested too deeply");
    R_xlen_t cap = 8, n = 0;
    PROTECT_INDEX ix, jx;
    SEXP vals, keys;
    PROTECT_WITH_INDEX(vals = Rf_allocVector(VECSXP, cap), &ix);
    PROTECT_WITH_INDEX(keys = Rf_allocVector(STRSXP, cap), &jx);
    if (peek(r) == '}') {
        r->pos++;
    } else {
        for (;;) {
            if (peek(r) != '"') fail(r, "expected a key");
            SEXP key = PROTECT(read_string(r));
            if (peek(r) != ':') fail(r, "expected :");
            r->pos++;
            int k;
            SEXP v = PROTECT(read_value(r, &k));
            if (n == cap) {
                R_xlen_t ncap = 2 * cap;
                SEXP bv = PROTECT(Rf_allocVector(VECSXP, ncap));
                SEXP bk = PROTECT(Rf_allocVector(STRSXP, ncap));
                for (R_xlen_t i = 0; i < n; i++) {
                    SET_VECTOR_ELT(bv, i, VECTOR_ELT(vals, i));
                    SET_STRING_ELT(bk, i, STRING_ELT(keys, i));
                }
                cap = ncap;
                REPROTECT(vals = bv, ix);
                REPROTECT(keys = bk, jx);
                UNPROTECT(2);
            }
            SET_VECTOR_ELT(vals, n, v);
            SET_STRING_ELT(keys, n, key);
            n++;
            UNPROTECT(2);
            int c = peek(r);
            if (c == ',') { r->pos++; continue; }
            if (c == '}') { r->pos++; break; }
            fail(r, "expected , or } in an object");
        }
    }
    r->depth--;
    SEXP out = PROTECT(Rf_allocVector(VECSXP, n));
    SEXP nm = PROTECT(Rf_allocVector(STRSXP, n));
    for (R_xlen_t i = 0; i < n; i++) {
        SET_VECTOR_ELT(out, i, VECTOR_ELT(vals, i));
        SET_STRING_ELT(nm, i, STRING_ELT(keys, i));
    }
    Rf_setAttrib(out, R_NamesSymbol, nm);
    UNPROTECT(4);
    return out;
}

static SEXP read_value(reader *r, int *kind)
{
    int c = peek(r);
    switch (c) {
    case '{': *kind = K_OTHER; return read_object(r);
    case '[': *kind = K_OTHER; return read_array(r);
    case '"': {
        *kind = K_STR;
        SEXP ch = PROTECT(read_string(r));
        SEXP s = Rf_ScalarString(ch);
        UNPROTECT(1);
        return s;
    }
    case 't': *kind = K_BOOL; expect_word(r, "true"); return Rf_ScalarLogical(TRUE);
    case 'f': *kind = K_BOOL; expect_word(r, "false"); return Rf_ScalarLogical(FALSE);
    case 'n': *kind = K_NULL; expect_word(r, "null"); return R_NilValue;
    case -1: fail(r, "unexpected end");
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            *kind = K_NUM;
            return Rf_ScalarReal(read_number(r));
        }
        fail(r, "unexpected character");
    }
}

SEXP cr_parse_json(SEXP text)
{
    if (TYPEOF(text) != STRSXP || XLENGTH(text) != 1 || STRING_ELT(text, 0) == NA_STRING)
        Rf_error("cardreg: JSON text must be one string");
    reader r;
    r.s = Rf_translateCharUTF8(STRING_ELT(text, 0));
    r.len = strlen(r.s);
    r.pos = 0;
    r.depth = 0;
    int kind;
    SEXP v = PROTECT(read_value(&r, &kind));
    if (peek(&r) != -1) fail(&r, "text after the value");
    UNPROTECT(1);
    return v;
}
