#!/usr/bin/env python3
"""Writes examples/policies.csv, the bundled example of factor predictors, byte
for byte the same each run (Python's own seeded generator, no third-party
packages).

3000 motor policies: region (12 districts R01..R12, nominal, text), vehicle
age band (ordinal 0-2 < 3-5 < 6-9 < 10-14 < 15+, text), fuel (Diesel or
Regular, text), driver age (numeric, standardised), exposure (years) and
claims (counts). The true log claim frequency is

    log E[claims] = log(exposure) - 1 + region effect + age-band effect + 0.25*driver_age

with region effects in three groups: R01 R04 R07 R10 at 0, R02 R05 R08 at
+0.5, R03 R06 R09 R11 R12 at -0.4; age-band effects 0, 0, 0.3, 0.3, 0.6
along the order; fuel has no effect. Fit it with

    cardreg fit --family poisson --offset log_exposure --drop exposure \\
        --ordinal vehicle_age=0-2,3-5,6-9,10-14,15+ examples/policies.csv

    python3 examples/make_factor_example.py
"""
import math
import random

REGIONS = ["R%02d" % k for k in range(1, 13)]
REGION_EFFECT = {"R01": 0, "R04": 0, "R07": 0, "R10": 0,
                 "R02": 0.5, "R05": 0.5, "R08": 0.5,
                 "R03": -0.4, "R06": -0.4, "R09": -0.4, "R11": -0.4, "R12": -0.4}
BANDS = ["0-2", "3-5", "6-9", "10-14", "15+"]
BAND_EFFECT = [0, 0, 0.3, 0.3, 0.6]
# Unequal district sizes, as in real portfolios.
REGION_SIZE = [9, 5, 7, 3, 6, 4, 8, 2, 5, 3, 4, 6]


def poisson(r, mu):
    l, k, p = math.exp(-mu), 0, 1.0
    while True:
        p *= r.random()
        if p <= l:
            return k
        k += 1


def main(path):
    r = random.Random(24)
    with open(path, "w") as f:
        f.write("region,vehicle_age,fuel,driver_age,exposure,log_exposure,claims\n")
        for _ in range(3000):
            region = r.choices(REGIONS, weights=REGION_SIZE)[0]
            band = r.choices(range(5), weights=[3, 4, 4, 3, 2])[0]
            fuel = r.choice(["Diesel", "Regular"])
            age = round(r.gauss(0, 1), 3)
            exposure = round(r.uniform(0.1, 1.0), 3)
            eta = math.log(exposure) - 1 + REGION_EFFECT[region] + BAND_EFFECT[band] + 0.25 * age
            claims = poisson(r, math.exp(eta))
            f.write("%s,%s,%s,%.3f,%.3f,%.6f,%d\n" % (region, BANDS[band], fuel, age, exposure,
                                                      math.log(exposure), claims))


if __name__ == "__main__":
    main("examples/policies.csv")
