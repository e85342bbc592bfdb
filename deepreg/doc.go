// Package deepreg trains feed-forward networks whose weight matrices are
// penalised by the cardinality, grouped, lasso or ridge penalties of package
// penalty, as in the source paper's Section 4.
//
// A Network is g_Θ(x) = W^L f^L(… W^1 f^1(W^0 x)), with L hidden layers,
// L+1 weight matrices W^l ∈ ℝ^{p_{l+1}×p_l}, and an Activation per hidden
// layer (relu, leaky relu, identity, isru, arctan, tanh, each with its
// Lipschitz constant). Biases are optional and off by default, because the
// theory has none. The penalty of a network is Σ_l h(W^l), h acting on the
// columns of each W^l, so the all-pairs difference matrix of layer l has
// C(p_{l+1}, 2) rows.
//
// Train minimises Loss + λ·Σ_l h(W^l) by proximal gradient descent (full
// batch or mini-batch, optionally with Adam's moments), applying the exact
// prox of h after every step and, optionally, a projection of every column
// onto at most k distinct values (package kproject: the paper's heuristic or
// the exact optimal 1-D k-means). FitScale fits the paper's estimator with a
// scale κ and a direction Ω in the unit h-ball.
//
// Inputs are a solver.Design: the first layer's products X·W^0ᵀ and Xᵀδ go
// through it, so a compressed cardmat.Matrix (digits: at most 17 values per
// column) is trained on without decompression.
package deepreg
