package datafit

import "fmt"

// Prediction is what a prediction reports, as glmnet's predict type.
type Prediction int

// The predictions of a fitted linear predictor η.
const (
	// Response is the fitted mean μ = g⁻¹(η): a probability for binomial,
	// a rate for poisson.
	Response Prediction = iota
	// LinkScale is η itself.
	LinkScale
	// Class is 1 when η > 0 (a binomial probability above 1/2), else 0.
	Class
)

// predictionNames are glmnet's names of the predictions.
var predictionNames = map[string]Prediction{"response": Response, "link": LinkScale, "class": Class}

// PredictionByName returns the prediction glmnet calls name ("link",
// "response" or "class"), and false for another name.
func PredictionByName(name string) (Prediction, bool) {
	p, ok := predictionNames[name]
	return p, ok
}

// LinearPredictor returns η = b₀ + Σ_j β_j x_j + offset for the
// coefficients beta, the predictors x (one per coefficient), intercept b0
// and offset.
func LinearPredictor(beta, x []float64, b0, offset float64) float64 {
	eta := 0.0
	for j, b := range beta {
		eta += b * x[j]
	}
	return eta + b0 + offset
}

// Predict maps the linear predictor eta of family fam to the prediction
// p.
func Predict(fam Family, eta float64, p Prediction) float64 {
	switch p {
	case LinkScale:
		return eta
	case Class:
		if eta > 0 {
			return 1
		}
		return 0
	}
	return fam.Mean(eta)
}

// PredictionFor returns the prediction glmnet calls typ for a model of
// family fam: an error for a name other than link, response or class,
// and for class of a family that is not binomial. The errors begin with
// the name's value; the caller prefixes its option's name.
func PredictionFor(fam Family, typ string) (Prediction, error) {
	p, ok := predictionNames[typ]
	if !ok {
		return 0, fmt.Errorf("must be link, response or class, got %q", typ)
	}
	if _, bin := fam.(Binomial); p == Class && !bin {
		return 0, fmt.Errorf("class is for binomial models; this one is %s", fam.Name())
	}
	return p, nil
}

// Predictions returns the predictions typ of family fam at the linear
// predictors eta: an error for a type PredictionFor refuses, and for an
// η that is not finite, naming its row (from 1).
func Predictions(fam Family, eta []float64, typ string) ([]float64, error) {
	pred, err := PredictionFor(fam, typ)
	if err != nil {
		return nil, fmt.Errorf("type %v", err)
	}
	out := make([]float64, len(eta))
	for i, v := range eta {
		if v-v != 0 { // NaN or ±Inf
			return nil, fmt.Errorf("data: row %d: the linear predictor %v is not a finite number", i+1, v)
		}
		out[i] = Predict(fam, v, pred)
	}
	return out, nil
}
