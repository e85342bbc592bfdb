#!/usr/bin/env python3
"""Writes the bundled logistic, Poisson and gamma examples, byte for byte the same
each run (Python's own seeded generator, no third-party packages).

credit.csv: 1000 applicants, 12 standardised predictors and default (0/1);
the true log-odds are -1 + 0.8*(late_payments + utilisation + debt_ratio)
- 0.8*(income + tenure + savings): two non-zero values; the other six
predictors have no effect.

claims.csv: 1000 policies, 10 standardised predictors, exposure (years) and
claims (counts); log E[claims] = log(exposure) - 1.5 + 0.3*(x1 + x2 + x3)
- 0.3*(x4 + x5); fit it with --offset log_exposure.

severity.csv: 400 claims, 8 standardised predictors and the claim amount
(gamma, shape 2); log E[amount] = 7 + 0.4*(x1 + x2) - 0.4*(x3 + x4); fit it
with --family gamma.

    python3 examples/make_glm_examples.py
"""
import math
import random

def poisson(r, mu):
    l, k, p = math.exp(-mu), 0, 1.0
    while True:
        p *= r.random()
        if p <= l:
            return k
        k += 1

def credit(path):
    r = random.Random(2026)
    names = ["income", "debt_ratio", "age", "late_payments", "utilisation", "accounts",
             "inquiries", "tenure", "savings", "employment_years", "region_index", "cards"]
    beta = {"late_payments": 0.8, "utilisation": 0.8, "debt_ratio": 0.8,
            "income": -0.8, "tenure": -0.8, "savings": -0.8}
    with open(path, "w") as f:
        f.write(",".join(names + ["default"]) + "\n")
        for _ in range(1000):
            x = [round(r.gauss(0, 1), 4) for _ in names]
            eta = -1 + sum(beta.get(n, 0) * v for n, v in zip(names, x))
            y = 1 if r.random() < 1 / (1 + math.exp(-eta)) else 0
            f.write(",".join(str(v) for v in x) + f",{y}\n")

def claims(path):
    r = random.Random(2027)
    p = 10
    beta = [0.3, 0.3, 0.3, -0.3, -0.3] + [0] * 5
    with open(path, "w") as f:
        f.write(",".join([f"x{j+1}" for j in range(p)] + ["exposure", "log_exposure", "claims"]) + "\n")
        for _ in range(1000):
            x = [round(r.gauss(0, 1), 4) for _ in range(p)]
            e = round(r.uniform(0.5, 2), 3)
            eta = math.log(e) - 1.5 + sum(b * v for b, v in zip(beta, x))
            f.write(",".join(str(v) for v in x) + f",{e},{math.log(e):.6f},{poisson(r, math.exp(eta))}\n")

def severity(path):
    r = random.Random(2028)
    p = 8
    beta = [0.4, 0.4, -0.4, -0.4] + [0] * 4
    with open(path, "w") as f:
        f.write(",".join([f"x{j+1}" for j in range(p)] + ["amount"]) + "\n")
        for _ in range(400):
            x = [round(r.gauss(0, 1), 4) for _ in range(p)]
            mu = math.exp(7 + sum(b * v for b, v in zip(beta, x)))
            amount = round(r.gammavariate(2, mu / 2), 2)
            assert amount > 0
            f.write(",".join(str(v) for v in x) + f",{amount}\n")

credit("examples/credit.csv")
claims("examples/claims.csv")
severity("examples/severity.csv")
