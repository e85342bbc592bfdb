/* abi_test.c: the C interface fed good and bad input (clib/test.sh builds
 * and runs it). Every bad call must return a non-zero status with a
 * message, never crash; good calls must agree with each other. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cardreg.h"

static int failures;

#define CHECK(cond, ...)                                                   \
	do {                                                               \
		if (!(cond)) {                                             \
			failures++;                                        \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                      \
			fprintf(stderr, "\n");                             \
		}                                                          \
	} while (0)

enum { N = 60, P = 4 };
static double X[N * P], XC[N * P], Y[N];

static void make_data(void) {
	unsigned s = 7;
	for (int i = 0; i < N; i++) {
		double eta = 0;
		for (int j = 0; j < P; j++) {
			s = s * 1103515245u + 12345u;
			double v = ((s >> 8) % 10000) / 5000.0 - 1;
			X[i * P + j] = v;
			XC[j * N + i] = v;
			eta += (j < 2 ? 1.0 : -1.0) * v;
		}
		s = s * 1103515245u + 12345u;
		Y[i] = eta + ((s >> 8) % 1000) / 5000.0;
	}
}

/* bad expects a failed call with a message containing want. */
static void bad(int status, const char *want, const char *what) {
	const char *msg = cardreg_last_error();
	CHECK(status != 0, "%s: status 0", what);
	CHECK(msg && strstr(msg, want), "%s: message \"%s\" lacks \"%s\"", what, msg ? msg : "(null)", want);
}

static void *fit_thread(void *arg) {
	double *gap = arg;
	cardreg_handle h = 0;
	int32_t conv = 0;
	double lambda = 0;
	if (cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"lambda\": 2}", &h) != 0 ||
	    cardreg_status(h, 0, &lambda, gap, &conv) != 0 || cardreg_free(h) != 0)
		*gap = -1;
	return NULL;
}

int main(void) {
	make_data();
	CHECK(strncmp(cardreg_version(), "cardreg", 7) == 0, "version %s", cardreg_version());
	CHECK(strcmp(cardreg_last_error(), "") == 0, "an error before any call");

	/* A fit in both layouts: the same coefficients. */
	cardreg_handle a = 0, b = 0;
	const char *opts = "{\"lambda\": 2, \"names\": [\"a\", \"b\", \"c\", \"d\"]}";
	CHECK(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, opts, &a) == 0, "fit: %s", cardreg_last_error());
	CHECK(cardreg_fit(XC, N, P, CARDREG_COL_MAJOR, Y, NULL, NULL, NULL, 0, opts, &b) == 0, "fit: %s", cardreg_last_error());
	int64_t models = 0, cols = 0;
	CHECK(cardreg_dims(a, &models, &cols) == 0 && models == 1 && cols == P, "dims %lld %lld", (long long)models, (long long)cols);
	double ca[P], cb[P], b0a, b0b;
	CHECK(cardreg_coef(a, 0, ca, &b0a) == 0 && cardreg_coef(b, 0, cb, &b0b) == 0, "coef");
	for (int j = 0; j < P; j++)
		CHECK(fabs(ca[j] - cb[j]) <= 1e-12 * (1 + fabs(ca[j])), "layouts differ at %d: %g %g", j, ca[j], cb[j]);
	double lambda, gap;
	int32_t conv;
	CHECK(cardreg_status(a, 0, &lambda, &gap, &conv) == 0 && lambda == 2 && conv == 1 && gap < 1e-7, "status %g %g %d", lambda, gap, conv);
	char *json = NULL;
	CHECK(cardreg_json(a, &json) == 0 && json && strstr(json, "\"duality_gap\"") && strstr(json, "\"a\""), "json");
	cardreg_string_free(json);
	double pred[N];
	CHECK(cardreg_predict(a, 0, X, N, P, CARDREG_ROW_MAJOR, NULL, 0, NULL, "link", pred) == 0, "predict: %s", cardreg_last_error());
	double eta0 = b0a;
	for (int j = 0; j < P; j++)
		eta0 += ca[j] * X[j];
	CHECK(fabs(pred[0] - eta0) < 1e-12, "predict %g, by hand %g", pred[0], eta0);

	/* A path and a cross-validation. */
	cardreg_handle pa = 0, cv = 0;
	CHECK(cardreg_path(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"nlambda\": 10}", &pa) == 0, "path: %s", cardreg_last_error());
	/* A generated gaussian path stops by glmnet's rules, from the fifth λ on. */
	CHECK(cardreg_dims(pa, &models, &cols) == 0 && models >= 5 && models <= 10, "path models %lld", (long long)models);
	CHECK(cardreg_cv(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"nlambda\": 10, \"folds\": 5}", &cv) == 0, "cv: %s", cardreg_last_error());
	CHECK(cardreg_json(cv, &json) == 0 && strstr(json, "\"cvm\""), "cv json");
	cardreg_string_free(json);

	/* Bad input: an error and a message, never a crash. */
	cardreg_handle h = 0;
	double nanx[N * P];
	memcpy(nanx, X, sizeof X);
	nanx[5 * P + 2] = NAN;
	bad(cardreg_fit(nanx, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"lambda\": 1}", &h), "row 6: column \"x3\": NaN", "NaN in x");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, NULL, NULL, NULL, NULL, 0, "{}", &h), "y is NULL", "NULL y");
	bad(cardreg_fit(NULL, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{}", &h), "x is NULL", "NULL x");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{}", NULL), "out is NULL", "NULL out");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"lamda\": 1}", &h), "unknown option \"lamda\"", "unknown option");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"lambda\": ", &h), "options:", "invalid JSON");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"names\": [\"a\"]}", &h), "names has 1 names for p = 4", "wrong length of names");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"foldid\": [1, 2]}", &h), "foldid has 2 values for n = 60", "wrong length of foldid");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{\"family\": \"binomial\", \"lambda\": 1}", &h), "row 1: response", "binomial response not 0/1");
	bad(cardreg_fit(X, N, P, 7, Y, NULL, NULL, NULL, 0, "{}", &h), "layout 7", "bad layout");
	bad(cardreg_fit(X, -3, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, "{}", &h), "n must be at least 1", "negative n");
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 2, "{}", &h), "codes is NULL", "NULL codes");
	bad(cardreg_coef(999999, 0, ca, &b0a), "is not a result", "unknown handle");
	bad(cardreg_coef(a, 5, ca, &b0a), "model 5", "model out of range");
	bad(cardreg_coef(a, 0, NULL, &b0a), "NULL", "NULL coef");
	bad(cardreg_predict(a, 0, X, N, 3, CARDREG_ROW_MAJOR, NULL, 0, NULL, "link", pred), "fitted on 4", "predict with wrong p");
	bad(cardreg_predict(a, 0, X, N, P, CARDREG_ROW_MAJOR, NULL, 0, NULL, "class", pred), "binomial", "class of a gaussian model");
	bad(cardreg_predict(a, 0, X, N, P, CARDREG_ROW_MAJOR, NULL, 0, NULL, "probability", pred), "type must be", "unknown type");

	/* Factors: codes out of range, then a fit. */
	int32_t codes[N];
	for (int i = 0; i < N; i++)
		codes[i] = i % 3;
	const char *fopts = "{\"lambda\": 1, \"factors\": [{\"name\": \"g\", \"levels\": [\"u\", \"v\", \"w\"]}]}";
	cardreg_handle fh = 0;
	CHECK(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, codes, 1, fopts, &fh) == 0, "factor fit: %s", cardreg_last_error());
	CHECK(cardreg_dims(fh, &models, &cols) == 0 && cols == P + 2, "factor columns %lld", (long long)cols);
	codes[7] = 3;
	bad(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, codes, 1, fopts, &h), "row 8: column \"g\": level code 3", "code out of range");
	codes[7] = -1;
	bad(cardreg_predict(fh, 0, X, N, P, CARDREG_ROW_MAJOR, codes, 1, NULL, "link", pred), "row 8", "missing code at predict");

	/* A sparse x (CSC arrays: here every value of XC stored, column after
	 * column): the fit, the predictions and the coefficients of the dense
	 * x; malformed arrays refused with a message. */
	int64_t start[P + 1];
	int32_t rowind[N * P];
	for (int j = 0; j <= P; j++)
		start[j] = (int64_t)j * N;
	for (int k = 0; k < N * P; k++)
		rowind[k] = k % N;
	/* Both fitted to a tight gap. A sparse design goes to the family
	 * engine, a dense gaussian one to the Gram route: two solvers, whose
	 * fits here differ by 1.6e-10 with both gaps below 3e-16 (the gap
	 * certifies the objective, and coefficients only to about its square
	 * root). binding's, Python's and R's tests compare the numerics; here
	 * the interface: a loose 1e-8, and exact products below. */
	const char *topts = "{\"lambda\": 2, \"tol\": 1e-15, \"names\": [\"a\", \"b\", \"c\", \"d\"]}";
	cardreg_handle sa = 0, da = 0;
	CHECK(cardreg_fit_csc(N, P, start, rowind, XC, Y, NULL, NULL, NULL, 0, topts, &sa) == 0, "fit_csc: %s", cardreg_last_error());
	CHECK(cardreg_fit(X, N, P, CARDREG_ROW_MAJOR, Y, NULL, NULL, NULL, 0, topts, &da) == 0, "fit: %s", cardreg_last_error());
	double cs[P], cd[P], b0s = 0, b0d = 0;
	CHECK(cardreg_coef(sa, 0, cs, &b0s) == 0 && cardreg_coef(da, 0, cd, &b0d) == 0, "coef of fit_csc");
	for (int j = 0; j < P; j++)
		CHECK(fabs(cs[j] - cd[j]) <= 1e-8 * (1 + fabs(cd[j])), "sparse and dense differ at %d: %.17g %.17g", j, cs[j], cd[j]);
	double spred[N], dpred[N];
	CHECK(cardreg_predict_csc(sa, 0, N, P, start, rowind, XC, NULL, 0, NULL, "link", spred) == 0, "predict_csc: %s", cardreg_last_error());
	CHECK(cardreg_predict(sa, 0, X, N, P, CARDREG_ROW_MAJOR, NULL, 0, NULL, "link", dpred) == 0, "predict: %s", cardreg_last_error());
	for (int i = 0; i < N; i++) {
		double e = b0s;
		for (int j = 0; j < P; j++)
			e += cs[j] * X[i * P + j];
		CHECK(fabs(spred[i] - e) < 1e-13 * (1 + fabs(e)) && fabs(dpred[i] - e) < 1e-13 * (1 + fabs(e)),
		      "row %d: predict_csc %.17g, predict %.17g, by hand %.17g", i, spred[i], dpred[i], e);
	}
	/* a dense fit predicts sparse rows as dense ones */
	CHECK(cardreg_predict_csc(a, 0, N, P, start, rowind, XC, NULL, 0, NULL, "link", spred) == 0 &&
	          fabs(spred[0] - pred[0]) < 1e-12 * (1 + fabs(pred[0])),
	      "predict_csc of a dense fit %.17g, dense %.17g", spred[0], pred[0]);
	CHECK(cardreg_free(da) == 0, "free");
	cardreg_handle sp = 0;
	CHECK(cardreg_path_csc(N, P, start, rowind, XC, Y, NULL, NULL, NULL, 0, "{\"nlambda\": 10}", &sp) == 0, "path_csc: %s", cardreg_last_error());
	CHECK(cardreg_free(sa) == 0 && cardreg_free(sp) == 0, "free sparse");
	double sx[N * P];
	memcpy(sx, XC, sizeof XC);
	sx[2 * N + 5] = NAN;
	bad(cardreg_fit_csc(N, P, start, rowind, sx, Y, NULL, NULL, NULL, 0, "{\"lambda\": 1}", &h), "row 6: column \"x3\": NaN", "NaN in a sparse x");
	rowind[3] = 1;
	bad(cardreg_fit_csc(N, P, start, rowind, XC, Y, NULL, NULL, NULL, 0, "{}", &h), "rows not increasing", "unsorted row indices");
	rowind[3] = N;
	bad(cardreg_fit_csc(N, P, start, rowind, XC, Y, NULL, NULL, NULL, 0, "{}", &h), "outside 1..60", "row index out of range");
	rowind[3] = 3;
	bad(cardreg_fit_csc(N, P, NULL, rowind, XC, Y, NULL, NULL, NULL, 0, "{}", &h), "colstart is NULL", "NULL colstart");
	bad(cardreg_fit_csc(N, P, start, NULL, XC, Y, NULL, NULL, NULL, 0, "{}", &h), "rowind is NULL", "NULL rowind");
	bad(cardreg_fit_csc((int64_t)1 << 31, P, start, rowind, XC, Y, NULL, NULL, NULL, 0, "{}", &h), "2³¹−1", "too many rows");
	start[2] = 3 * N;
	start[3] = 2 * N;
	bad(cardreg_fit_csc(N, P, start, rowind, XC, Y, NULL, NULL, NULL, 0, "{}", &h), "after its end", "decreasing column starts");
	start[2] = 2 * N;
	start[3] = 3 * N;
	start[P] = -1;
	bad(cardreg_fit_csc(N, P, start, rowind, XC, Y, NULL, NULL, NULL, 0, "{}", &h), "-1 non-zeros", "negative nnz");
	start[P] = (int64_t)N * P;
	bad(cardreg_predict_csc(a, 0, N, 3, start, rowind, XC, NULL, 0, NULL, "link", pred), "fitted on 4", "predict_csc with wrong p");

	/* Separate handles from separate threads. */
	pthread_t t[4];
	double gaps[4];
	for (int k = 0; k < 4; k++)
		pthread_create(&t[k], NULL, fit_thread, &gaps[k]);
	for (int k = 0; k < 4; k++) {
		pthread_join(t[k], NULL);
		CHECK(gaps[k] >= 0 && gaps[k] < 1e-7, "thread %d: gap %g", k, gaps[k]);
	}

	/* The description, and the inverse link from it. */
	char *desc = NULL;
	CHECK(cardreg_describe(&desc) == 0 && desc && strstr(desc, "\"families\"") && strstr(desc, "\"binomial\"") &&
	          strstr(desc, "\"penalties\"") && strstr(desc, "\"cardinality\"") && strstr(desc, "\"path\""),
	      "describe: %s", desc ? desc : cardreg_last_error());
	cardreg_string_free(desc);
	bad(cardreg_describe(NULL), "NULL", "describe NULL");
	double eta[3] = {-1, 0, 2}, mu[3];
	CHECK(cardreg_response("poisson", eta, 3, "response", mu) == 0 && fabs(mu[2] - exp(2.0)) < 1e-15 * exp(2.0) && mu[1] == 1,
	      "poisson response %g %g", mu[1], mu[2]);
	CHECK(cardreg_response("binomial", eta, 3, "response", mu) == 0 && fabs(mu[0] - 1 / (1 + exp(1.0))) < 1e-16,
	      "binomial response %g", mu[0]);
	bad(cardreg_response("weibull", eta, 3, "response", mu), "unknown family", "response of an unknown family");
	bad(cardreg_response("poisson", eta, 3, "class", mu), "binomial", "class of poisson");
	bad(cardreg_response("poisson", NULL, 3, "link", mu), "eta is NULL", "NULL eta");
	bad(cardreg_response("poisson", eta, -1, "link", mu), "n = -1", "negative n");

	CHECK(cardreg_free(a) == 0 && cardreg_free(b) == 0 && cardreg_free(pa) == 0 && cardreg_free(cv) == 0 && cardreg_free(fh) == 0, "free");
	bad(cardreg_free(a), "is not a result", "double free");
	if (failures) {
		fprintf(stderr, "abi_test: %d failures\n", failures);
		return 1;
	}
	printf("abi_test: ok\n");
	return 0;
}
