package report

import (
	"math"
	"slices"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/internal/modelfile"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

// Fit is the result of a fit at one λ, as cardreg fit prints it.
type Fit struct {
	// Family and Link name the response distribution (gaussian and
	// identity for least squares).
	Family       string   `json:"family"`
	Link         string   `json:"link"`
	Penalty      string   `json:"penalty"`
	Lambda       float64  `json:"lambda"`
	LambdaGlmnet float64  `json:"lambda_glmnet"`
	Nu           *float64 `json:"nu"`
	NuNote       string   `json:"nu_note,omitempty"`
	// Alpha is the elastic net's α (glmnet's alpha); absent for a
	// penalty that takes none.
	Alpha *float64 `json:"alpha,omitempty"`
	// Constant lists predictors that are constant: with an intercept the
	// data say nothing about them, and their coefficients are set by the
	// penalty alone.
	Constant []string `json:"constant_predictors,omitempty"`
	// DroppedRows counts rows left out for missing values (--drop-missing).
	DroppedRows int `json:"dropped_rows,omitempty"`
	// Objective is null when it is beyond float64 (a response of magnitude
	// beyond about 1e154: it is in units of y²; the fit itself is exact).
	Objective  *float64 `json:"objective"`
	DualityGap *float64 `json:"duality_gap"`
	Converged  bool     `json:"converged"`
	Status     string   `json:"status"`
	// RoundingLambda is, when the fit stalled below the gradient's
	// rounding (solver.Uncertifiable), the λ above which a fit can be
	// certified; absent otherwise.
	RoundingLambda float64    `json:"rounding_lambda,omitempty"`
	Iterations     int        `json:"iterations"`
	N              int        `json:"n"`
	P              int        `json:"p"`
	Target         string     `json:"target"`
	Intercept      float64    `json:"intercept"`
	Names          []string   `json:"names"`
	Coefficients   []float64  `json:"coefficients"`
	DistinctValues []float64  `json:"distinct_values"`
	Clusters       [][]string `json:"clusters"`
	ClusterValues  []float64  `json:"cluster_values"`
	// ValueScale says what distinct_values and cluster_values measure:
	// "data" (the coefficients) or "standardized" (coefficient × the
	// predictor's standard deviation, the values the penalty fuses).
	ValueScale string   `json:"value_scale"`
	R2         *float64 `json:"r2"` // nil (null) when undefined
	// Deviance, NullDeviance and DevRatio (glmnet's dev.ratio, R² for
	// gaussian) describe every fit of one response (estimator.Model.Deviance not NaN).
	Deviance     *float64 `json:"deviance,omitempty"`
	NullDeviance *float64 `json:"null_deviance,omitempty"`
	DevRatio     *float64 `json:"dev_ratio"`
	// Unpenalized lists the predictors left out of the penalty (--exclude,
	// --penalty-factor 0); OffsetColumn and WeightsColumn the columns used.
	Unpenalized   []string `json:"unpenalized,omitempty"`
	OffsetColumn  string   `json:"offset_column,omitempty"`
	WeightsColumn string   `json:"weights_column,omitempty"`
	// Passes counts the passes over the file of a streamed logistic or
	// Poisson fit (0 in memory).
	Passes int `json:"passes,omitempty"`
	// Scans counts the aggregation queries over a --db table of a binomial
	// or Poisson fit, fitted in rounds (0 otherwise).
	Scans int `json:"scans,omitempty"`
	// Relaxed says whether the coefficients are the refit on the clusters
	// (--relax: least squares, or maximum likelihood for a family); the
	// fields RelaxedFields names then describe the refit, while objective
	// and duality_gap describe the penalised fit that chose the clusters,
	// which Penalized describes in full.
	Relaxed bool `json:"relaxed"`
	// RelaxedFields names, when Relaxed, the fields that hold the refit's
	// numbers (relaxedFields).
	RelaxedFields []string `json:"relaxed_fields,omitempty"`
	// Penalized is, when Relaxed, the penalised fit that chose the
	// clusters: its objective and duality gap (the same as objective and
	// duality_gap, kept at the top for the readers of earlier versions)
	// and its deviance.
	Penalized *PenalizedFit `json:"penalized,omitempty"`
	// RelaxNote says why the refit of --relax was not used (its minimum
	// does not exist, e.g. separation); converged is then false.
	RelaxNote string `json:"relax_note,omitempty"`
	// LambdaRule says how λ was chosen ("" for a λ given).
	LambdaRule string `json:"lambda_rule,omitempty"`
	// Theory holds Theorem 2's λ and its ingredients, when λ is that one.
	Theory *Theory `json:"theory,omitempty"`

	// PenalisedStatus is the penalised fit's status when --relax failed
	// and the penalised fit did not converge either ("" otherwise): Status
	// then reports the refit.
	PenalisedStatus string `json:"-"`
	// PerResponse holds one result per response of a multi-response fit
	// (nil for one response).
	PerResponse []*Fit `json:"-"`
	// CV summarises the cross-validation that chose λ, if any.
	CV *CVSummary `json:"cv,omitempty"`
	// Factors holds each factor predictor's level groups, and PairWeights
	// how its level pairs were weighted (fits with factors only).
	Factors     []factor.Levels `json:"factors,omitempty"`
	PairWeights string          `json:"pair_weights,omitempty"`
	// NumericPenalty is the numeric predictors' penalty of a fit with
	// factors, whose Penalty is then FactorPenalty.
	NumericPenalty string `json:"numeric_penalty,omitempty"`
	// NumericPredictors describes, in a fit with factors, each numeric
	// predictor: its penalty, its standard deviation, whether the
	// penalty acted per standard deviation (--standardize) and its
	// coefficient per unit and per standard deviation.
	NumericPredictors []factor.NumericPredictor `json:"numeric_predictors,omitempty"`
	// SavedFactors are the factors as a saved model records them (for
	// predict; see WriteModel), in the order of the design's.
	SavedFactors []modelfile.Factor `json:"-"`
}

// PenalizedFit describes the penalised fit behind a relaxed one (--relax).
type PenalizedFit struct {
	// Objective and DualityGap are as Fit's (null beyond float64, or
	// without a dual norm).
	Objective  *float64 `json:"objective"`
	DualityGap *float64 `json:"duality_gap"`
	// Deviance (the residual sum of squares for gaussian), DevRatio and
	// R2 (gaussian) are the penalised fit's, absent for several responses.
	Deviance *float64 `json:"deviance,omitempty"`
	DevRatio *float64 `json:"dev_ratio,omitempty"`
	R2       *float64 `json:"r2,omitempty"`
}

// relaxedFields are the fields of a relaxed Fit that hold the refit's
// numbers; objective and duality_gap are the penalised fit's.
var relaxedFields = []string{"intercept", "coefficients", "distinct_values", "clusters", "cluster_values", "r2", "deviance", "dev_ratio", "factors"}

// FactorPenalty is the name a fit with factor predictors gives its
// penalty: each factor its block, the numeric predictors NumericPenalty.
const FactorPenalty = modelfile.FactorPenalty

// FillModelFactors sets the level groups of model m, fitted on design d
// with row weights (nil: none) and pair weights named pairWeights: with
// Options.Relax the groups are the penalised fit's (Model.Penalised), the
// effects the refit's. The command line and the bindings fill theirs here.
func (r *Fit) FillModelFactors(d *factor.Design, m *estimator.Model, weights []float64, pairWeights string) {
	fit := factor.Fitted{Coef: m.Coefficients(0), LogLink: m.Family.Link() == "log", Weights: weights}
	if m.Penalised != nil {
		fit.Penalised = slices.Clone(fit.Coef)
		for k, j := range m.Penalized {
			fit.Penalised[j] = m.Penalised.At(k, 0)
		}
	}
	r.FillFactors(d, d.Levels(fit), pairWeights)
}

// FillFactors sets the level groups of a fit with factors, and keeps in
// the clusters only the numeric predictors (a factor's answer is its level
// groups; its dummy columns' values are effects against its reference,
// which the clusters across predictors would mix up).
func (r *Fit) FillFactors(d *factor.Design, levels []factor.Levels, weights string) {
	r.Factors, r.PairWeights = levels, weights
	r.nameRelaxed()
	r.SavedFactors = nil
	for _, f := range d.Factors {
		r.SavedFactors = append(r.SavedFactors, modelfile.NewFactor(f))
	}
	if r.Penalty != FactorPenalty {
		r.NumericPenalty, r.Penalty = r.Penalty, FactorPenalty
	}
	numeric := map[string]bool{}
	for _, j := range d.Numeric() {
		numeric[d.Names[j]] = true
	}
	var clusters [][]string
	var values []float64
	for c, cl := range r.Clusters {
		var keep []string
		for _, name := range cl {
			if numeric[name] {
				keep = append(keep, name)
			}
		}
		if len(keep) > 0 {
			clusters, values = append(clusters, keep), append(values, r.ClusterValues[c])
		}
	}
	r.Clusters, r.ClusterValues = clusters, values
	r.DistinctValues = distinctSorted(values)
}

// distinctSorted returns the distinct values of v in increasing order.
func distinctSorted(v []float64) []float64 {
	out := slices.Clone(v)
	slices.Sort(out)
	return slices.Compact(out)
}

// CVSummary is what a fit reports of the cross-validation that chose λ.
type CVSummary struct {
	Folds     int     `json:"folds"`
	LambdaMin float64 `json:"lambda_min"`
	Lambda1SE float64 `json:"lambda_1se"`
	// Unconverged counts fold fits that did not converge (their errors are in
	// the curve anyway).
	Unconverged int `json:"unconverged_fold_fits"`
}

// NewCVSummary summarises cv: folds is the number of folds asked for,
// replaced by the number of distinct fold ids when the folds were given.
func NewCVSummary(cv *estimator.CV, folds int) *CVSummary {
	if cv.Folds != nil {
		folds = len(slices.Compact(slices.Sorted(slices.Values(cv.Folds))))
	}
	return &CVSummary{Folds: folds, LambdaMin: cv.LambdaMin, Lambda1SE: cv.LambdaSE, Unconverged: cv.Unconverged}
}

// Theory is Theorem 2's λ with its ingredients.
type Theory struct {
	Lambda      float64 `json:"lambda"`
	LambdaT     float64 `json:"lambda_t"`
	S           float64 `json:"s"`
	Equivalence float64 `json:"equivalence"`
	MG          float64 `json:"M_G"`
	Sigma       float64 `json:"sigma"`
	SigmaFrom   string  `json:"sigma_from"`
	T           float64 `json:"t"`
}

// FillAll fills the result from model m, with one result per response
// (PerResponse) when there are several. standardized says the values
// the penalty fuses are on the standardised scale.
func (r *Fit) FillAll(m *estimator.Model, responses []string, standardized bool) {
	r.Fill(m, 0, standardized)
	if len(responses) < 2 {
		return
	}
	r.PerResponse = make([]*Fit, len(responses))
	for j, name := range responses {
		rj := *r
		rj.Target, rj.Clusters, rj.ClusterValues, rj.PerResponse = name, nil, nil, nil
		rj.Fill(m, j, standardized)
		r.PerResponse[j] = &rj
	}
}

// Fill fills the result from response j of model m: R² for a gaussian
// fit, the deviances (and R², their ratio, for gaussian) of a family
// route's fit. N and Names must be set.
func (r *Fit) Fill(m *estimator.Model, j int, standardized bool) {
	r.Lambda = m.Lambda
	r.LambdaGlmnet = estimator.LambdaGlmnet(m.Lambda, r.N)
	r.Objective = nil
	if obj := m.Objective; !math.IsInf(obj, 0) && !math.IsNaN(obj) {
		r.Objective = &obj
	}
	if !math.IsNaN(m.Gap) {
		g := m.Gap
		r.DualityGap = &g
	}
	r.Converged, r.Status, r.Iterations = m.Converged, m.Status.String(), m.Iterations
	r.RoundingLambda = m.RoundingLambda
	r.Relaxed, r.RelaxNote = m.Relaxed, m.RelaxNote
	r.RelaxedFields, r.Penalized = nil, nil
	if m.Relaxed {
		r.Penalized = penalizedFit(m, r.Objective, r.DualityGap)
	}
	if m.RelaxNote != "" {
		r.Status = "the relaxed refit failed: " + m.RelaxNote
		if m.Status == solver.IterationLimit || m.Status == solver.Stalled || m.Status == solver.Uncertifiable {
			r.PenalisedStatus = m.Status.String()
		}
	}
	r.Intercept = m.Intercept[j]
	r.Coefficients = mat.Col(nil, j, m.Coef)
	r.fillClusters(m, j, standardized)
	r.fillFit(m, j)
	r.nameRelaxed()
}

// nameRelaxed sets RelaxedFields, for a relaxed fit, to the fields of
// relaxedFields that its JSON holds: one left out is not named ("factors"
// for a model without factors, "deviance" where the route computes none;
// r2 and dev_ratio are always there, null when undefined).
func (r *Fit) nameRelaxed() {
	r.RelaxedFields = nil
	if !r.Relaxed {
		return
	}
	absent := map[string]bool{"deviance": r.Deviance == nil, "factors": len(r.Factors) == 0}
	for _, f := range relaxedFields {
		if !absent[f] {
			r.RelaxedFields = append(r.RelaxedFields, f)
		}
	}
}

// fillClusters sets the distinct values and the clusters of response j.
// They are on the scale the penalty acts on: with --standardize the
// members of a cluster share a standardised value, not a coefficient.
// Clusters come in decreasing order of that value, DistinctValues in
// increasing order.
func (r *Fit) fillClusters(m *estimator.Model, j int, standardized bool) {
	r.DistinctValues = m.DistinctValues(j)
	r.ValueScale = "data"
	if standardized {
		r.ValueScale = "standardized"
	}
	for c, cl := range m.Clusters(j) {
		names := make([]string, len(cl))
		for k, i := range cl {
			names[k] = r.Names[i]
		}
		r.Clusters = append(r.Clusters, names)
		r.ClusterValues = append(r.ClusterValues, r.DistinctValues[len(r.DistinctValues)-1-c])
	}
}

// fillFit sets the measures of fit of response j: the deviances when the
// route computed them, R² (and the deviance ratio) when it is defined.
func (r *Fit) fillFit(m *estimator.Model, j int) {
	if !math.IsNaN(m.Deviance) {
		dev, null, ratio := m.Deviance, m.NullDeviance, m.DevRatio
		r.Deviance, r.NullDeviance, r.DevRatio = &dev, &null, &ratio
		if len(m.R2) > j {
			r.R2 = &ratio
		}
		return
	}
	if r2 := m.R2[j]; !math.IsNaN(r2) && !math.IsInf(r2, 0) {
		r.R2 = &r2
		r.DevRatio = &r2
	}
}

// penalizedFit returns the penalised fit behind relaxed model m, whose
// objective and gap are obj and gap.
func penalizedFit(m *estimator.Model, obj, gap *float64) *PenalizedFit {
	pf := &PenalizedFit{Objective: obj, DualityGap: gap}
	if dev := m.PenalizedDeviance; !math.IsNaN(dev) && !math.IsInf(dev, 0) {
		pf.Deviance = &dev
		if null := m.NullDeviance; null > 0 {
			ratio := 1 - dev/null
			pf.DevRatio = &ratio
			if m.Family.Name() == gaussianName {
				pf.R2 = &ratio
			}
		}
	}
	return pf
}

// gaussianName is the gaussian family's name, as a Fit's Family holds it.
var gaussianName = datafit.Gaussian{}.Name()

// IsFamily reports a fit of a family other than the gaussian.
func (r *Fit) IsFamily() bool { return r.Family != "" && r.Family != gaussianName }
