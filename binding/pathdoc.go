package binding

import (
	"github.com/cardsparse/cardreg/estimator"
)

// pathDoc is the JSON document of a path or a cross-validation.
type pathDoc struct {
	Family       string     `json:"family"`
	Penalty      string     `json:"penalty"`
	N            int        `json:"n"`
	Names        []string   `json:"names"`
	Lambda       []float64  `json:"lambda"`
	LambdaGlmnet []float64  `json:"lambda_glmnet"`
	LambdaMax    float64    `json:"lambda_max"`
	Note         string     `json:"note,omitempty"`
	Models       []modelDoc `json:"models"`
	CV           *cvDoc     `json:"cv,omitempty"`
	// Fits holds, for a cross-validation, fit's document of the model at
	// λ_min ("min") and at λ_1se ("1se").
	Fits map[string]any `json:"fits,omitempty"`
}

// modelDoc is one model of a path.
type modelDoc struct {
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

// cvDoc is a cross-validation curve (cv.glmnet's cvm, cvsd, ...).
type cvDoc struct {
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

func (pr *problem) pathDoc(p *estimator.Path, cv *estimator.CV) *pathDoc {
	n, _ := pr.rows.X.Dims()
	d := &pathDoc{Family: pr.est.Family.Name(), Penalty: pr.o.Penalty, N: n, Names: pr.lay.names,
		LambdaMax: p.LambdaMax, Note: p.Note}
	for _, m := range p.Models {
		d.Lambda = append(d.Lambda, m.Lambda)
		d.LambdaGlmnet = append(d.LambdaGlmnet, m.LambdaGlmnet())
		d.Models = append(d.Models, pr.modelDoc(m))
	}
	if cv != nil {
		c := &cvDoc{Measure: cv.Measure, Mean: cv.Mean, SE: cv.SE, IndexMin: cv.IndexMin, IndexSE: cv.IndexSE,
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

func (pr *problem) modelDoc(m *estimator.Model) modelDoc {
	md := modelDoc{Lambda: m.Lambda, LambdaGlmnet: m.LambdaGlmnet(), Intercept: m.Intercept[0],
		Coefficients: m.Coefficients(0), DualityGap: m.Gap, Converged: m.Converged, Status: m.Status.String(),
		Iterations: m.Iterations, DevRatio: m.DevRatio, Deviance: m.Deviance,
		DF: factorDF(pr, m), DistinctValues: m.DistinctValues(0)}
	for _, cl := range m.Clusters(0) {
		names := make([]string, len(cl))
		for k, j := range cl {
			names[k] = pr.lay.names[j]
		}
		md.Clusters = append(md.Clusters, names)
	}
	return md
}
