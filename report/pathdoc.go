package report

import (
	"github.com/cardsparse/cardreg/estimator"
)

// PathDoc is the JSON document of a path or a cross-validation, as the
// bindings return it.
type PathDoc struct {
	Family       string     `json:"family"`
	Penalty      string     `json:"penalty"`
	Alpha        *float64   `json:"alpha,omitempty"`
	N            int        `json:"n"`
	Names        []string   `json:"names"`
	Lambda       []float64  `json:"lambda"`
	LambdaGlmnet []float64  `json:"lambda_glmnet"`
	LambdaMax    float64    `json:"lambda_max"`
	Note         string     `json:"note,omitempty"`
	Models       []ModelDoc `json:"models"`
	CV           *CVDoc     `json:"cv,omitempty"`
	// Fits holds, for a cross-validation, fit's document of the model at
	// λ_min ("min") and at λ_1se ("1se").
	Fits map[string]any `json:"fits,omitempty"`
}

// ModelDoc is one model of a path.
type ModelDoc struct {
	Lambda         float64    `json:"lambda"`
	LambdaGlmnet   float64    `json:"lambda_glmnet"`
	Intercept      float64    `json:"intercept"`
	Coefficients   []float64  `json:"coefficients"`
	DualityGap     float64    `json:"duality_gap"`
	Converged      bool       `json:"converged"`
	Status         string     `json:"status"`
	Iterations     int        `json:"iterations"`
	DevRatio       float64    `json:"dev_ratio"`
	Deviance       float64    `json:"deviance"`
	DF             int        `json:"df"`
	DistinctValues []float64  `json:"distinct_values"`
	Clusters       [][]string `json:"clusters"`
}

// CVDoc is a cross-validation curve (cv.glmnet's cvm, cvsd, ...).
type CVDoc struct {
	Measure   string    `json:"measure"`
	Folds     int       `json:"folds"`
	Mean      []float64 `json:"cvm"`
	SE        []float64 `json:"cvsd"`
	IndexMin  int       `json:"index_min"`
	IndexSE   int       `json:"index_1se"`
	LambdaMin float64   `json:"lambda_min"`
	LambdaSE  float64   `json:"lambda_1se"`
	// FoldID is each row's fold, from 1 (glmnet's foldid).
	FoldID      []int `json:"foldid"`
	Unconverged int   `json:"unconverged_fold_fits"`
}

// NewPathDoc is the document of path p (and of cross-validation cv, when
// not nil) of the fit that head describes before fitting (its family,
// penalty, α, n rows, the design's columns' names); df is a model's
// degrees of freedom.
func NewPathDoc(p *estimator.Path, cv *estimator.CV, head *Fit, df func(*estimator.Model) int) *PathDoc {
	names := head.Names
	d := &PathDoc{Family: head.Family, Penalty: head.Penalty, Alpha: head.Alpha, N: head.N, Names: names, LambdaMax: p.LambdaMax, Note: p.Note}
	for _, m := range p.Models {
		d.Lambda = append(d.Lambda, m.Lambda)
		d.LambdaGlmnet = append(d.LambdaGlmnet, m.LambdaGlmnet())
		d.Models = append(d.Models, modelDoc(m, names, df))
	}
	if cv != nil {
		c := &CVDoc{Measure: cv.Measure, Mean: cv.Mean, SE: cv.SE, IndexMin: cv.IndexMin, IndexSE: cv.IndexSE,
			LambdaMin: cv.LambdaMin, LambdaSE: cv.LambdaSE, Unconverged: cv.Unconverged}
		folds := map[int]bool{}
		for _, f := range cv.Folds {
			c.FoldID = append(c.FoldID, f+1)
			folds[f] = true
		}
		c.Folds = len(folds)
		d.CV = c
	}
	return d
}

func modelDoc(m *estimator.Model, names []string, df func(*estimator.Model) int) ModelDoc {
	md := ModelDoc{Lambda: m.Lambda, LambdaGlmnet: m.LambdaGlmnet(), Intercept: m.Intercept[0],
		Coefficients: m.Coefficients(0), DualityGap: m.Gap, Converged: m.Converged, Status: m.Status.String(),
		Iterations: m.Iterations, DevRatio: m.DevRatio, Deviance: m.Deviance,
		DF: df(m), DistinctValues: m.DistinctValues(0)}
	for _, cl := range m.Clusters(0) {
		c := make([]string, len(cl))
		for k, j := range cl {
			c[k] = names[j]
		}
		md.Clusters = append(md.Clusters, c)
	}
	return md
}
