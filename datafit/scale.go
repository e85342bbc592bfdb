package datafit

// GlmnetLambda returns λ on glmnet's (and scikit-learn's) scale for the
// λ of the objective Σᵢ wᵢ·d(yᵢ, ηᵢ) + λ·h(β) on n observations:
// λ_glmnet = λ/(2n), glmnet minimising that objective divided by 2n (see
// the package documentation).
func GlmnetLambda(lambda float64, n int) float64 { return lambda / (2 * float64(n)) }

// FromGlmnet is GlmnetLambda's inverse: λ = 2n·λ_glmnet.
func FromGlmnet(lambdaGlmnet float64, n int) float64 { return 2 * float64(n) * lambdaGlmnet }
