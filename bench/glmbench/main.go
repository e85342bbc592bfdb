// Command glmbench times cardreg's logistic and Poisson fits (package
// estimator, on rows in memory)
// for bench/glm.sh, beside R glmnet on the same data, and certifies
// glmnet's coefficients with cardreg's duality gap.
//
//	glmbench -gen -n 5000 -p 500 -family binomial -out data.csv
//	glmbench -data data.csv -family binomial -lambda 0.01 -tol 1e-7 -reps 5
//	glmbench -data data.csv -family binomial -path 100 -tol 1e-7 -reps 3
//	glmbench -data data.csv -family binomial -lambda 0.01 -certify coef.txt
//	glmbench -data data.csv -family binomial -cv 10 -tol 1e-7 -reps 1
//	glmbench -data data.csv -family binomial -certify-path path.txt
//
// λ is on glmnet's scale (λ_glmnet); cardreg fits at 2n·λ. Timings are
// medians over -reps runs after one warm-up, data reading excluded:
// cardreg_seconds the wall time, cardreg_cpu_seconds the process CPU time.
// -cv K cross-validates the default 100-λ path instead (bench/glmcv.sh),
// row i (0-based) in fold i mod K (cv.glmnet's foldid i mod K + 1).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cardsparse/cardreg/bench/internal/clock"
	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/penalty"
	"github.com/cardsparse/cardreg/solver"
	"gonum.org/v1/gonum/mat"
)

func main() {
	gen := flag.Bool("gen", false, "generate a data set")
	n := flag.Int("n", 5000, "rows (-gen)")
	p := flag.Int("p", 500, "columns (-gen)")
	seed := flag.Uint64("seed", 1, "seed (-gen)")
	out := flag.String("out", "", "output CSV (-gen)")
	data := flag.String("data", "", "data CSV: x1..xp, y")
	family := flag.String("family", "binomial", "binomial or poisson")
	pen := flag.String("penalty", "lasso", "a penalty of the table that fits every family and needs no input: "+strings.Join(penalty.Names(benchable), ", ")+" (ν = 1)")
	lambda := flag.Float64("lambda", 0, "λ on glmnet's scale")
	frac := flag.Float64("frac", 0, "λ as this fraction of λ_max instead of -lambda")
	path := flag.Int("path", 0, "fit a path of this many λ instead")
	cvK := flag.Int("cv", 0, "cross-validate the 100-λ path over this many folds instead (row i in fold i mod K)")
	tol := flag.Float64("tol", 1e-7, "relative duality-gap tolerance")
	reps := flag.Int("reps", 3, "timed repetitions")
	certify := flag.String("certify", "", "file of glmnet coefficients (intercept first) to certify")
	certifyPath := flag.String("certify-path", "", "file of glmnet's path, one λ a line (λ_glmnet, intercept, coefficients), to certify at every λ")
	method := flag.String("method", "auto", "auto, newton or fista")
	flag.StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the timed runs (their warm-up included; data reading excluded)")
	match := flag.String("match", "", "-certify-path's output for glmnet's path: fit each λ to the gap glmnet reached there (matchedPath)")
	uniform := flag.Float64("uniform", 0, "with -match: fit every λ of the file to this gap instead")
	flag.Parse()
	fam := benchFamily(*family)
	if *gen {
		generate(*out, fam, *n, *p, *seed)
		return
	}
	x, y := read(*data)
	nrows, _ := x.Dims()
	h := benchPenalty(*pen, x)
	rows := estimator.NewRows(x, y)
	opts := estimator.Options{Family: fam, Settings: solver.Settings{Tol: *tol, MaxIter: 100000}}
	switch *method {
	case "newton":
		opts.Method = &solver.ProxNewton{}
	case "fista":
		opts.Method = &solver.FISTA{}
	}
	switch {
	case *match != "":
		matching(*match, *uniform, *reps, rows, &opts)
		return
	case *cvK > 0:
		crossValidate(rows, h, opts, *cvK, *reps)
		return
	case *certifyPath != "":
		certifyGlmnetPath(*certifyPath, rows, h, &opts)
		return
	}
	lam := estimator.FromGlmnet(*lambda, nrows)
	if *frac > 0 {
		lmax, _, err := estimator.LambdaMax(rows, h, &opts)
		if err != nil {
			log.Fatal(err)
		}
		lam = *frac * lmax
	}
	if *certify != "" {
		fmt.Printf("glmnet_gap %.3g\n", certifyCoef(*certify, rows, h, lam, &opts))
		return
	}
	timeFits(rows, h, lam, opts, *path, *reps)
}

// cpuProfile is the -cpuprofile flag: the file startProfile writes.
var cpuProfile string

// startProfile starts the CPU profile of -cpuprofile, if asked for, and
// returns the function that stops it.
func startProfile() func() {
	if cpuProfile == "" {
		return func() {}
	}
	f, err := os.Create(cpuProfile)
	if err != nil {
		log.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		log.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// timeFits times reps fits at λ (or paths of nlambda λ when nlambda > 0)
// after one warm-up and prints the medians and the warm-up's certificate.
func timeFits(rows *estimator.Rows, h penalty.Penalty, lam float64, opts estimator.Options, nlambda, reps int) {
	stop := startProfile()
	var times, cpu []float64
	for r := 0; r <= reps; r++ {
		c0, start := clock.CPU(), time.Now()
		if nlambda > 0 {
			fitPath(rows, h, opts, nlambda, r == 0)
		} else {
			fitOne(rows, h, lam, opts, r == 0)
		}
		if r > 0 {
			times = append(times, time.Since(start).Seconds())
			cpu = append(cpu, clock.CPU()-c0)
		}
	}
	stop()
	slices.Sort(times)
	slices.Sort(cpu)
	fmt.Printf("cardreg_seconds %.4f\ncardreg_cpu_seconds %.4f\n", times[len(times)/2], cpu[len(cpu)/2])
}

// fitPath fits the path of nlambda λ and, when report is set, prints its
// length, its largest gap and its first λ on glmnet's scale.
func fitPath(rows *estimator.Rows, h penalty.Penalty, opts estimator.Options, nlambda int, report bool) {
	pth, err := estimator.FitPath(rows, h, &estimator.PathOptions{Options: opts, NLambda: nlambda})
	if err != nil {
		log.Fatal(err)
	}
	if !report {
		return
	}
	worst, unconv := 0.0, 0
	for _, m := range pth.Models {
		worst = math.Max(worst, m.Gap)
		if !m.Converged {
			unconv++
		}
	}
	n, _ := rows.X.Dims()
	fmt.Printf("cardreg_path_len %d\ncardreg_path_worst_gap %.3g\ncardreg_path_unconverged %d\ncardreg_path_lambda_max %.17g\n",
		len(pth.Models), worst, unconv, estimator.LambdaGlmnet(pth.Lambdas[0], n))
}

// fitOne fits at λ and, when report is set, prints the certificate.
func fitOne(rows *estimator.Rows, h penalty.Penalty, lam float64, opts estimator.Options, report bool) {
	m, err := estimator.Fit(rows, h, lam, &opts)
	if err != nil {
		log.Fatal(err)
	}
	if report {
		fmt.Printf("cardreg_gap %.3g\ncardreg_iterations %d\ncardreg_nonzero %d\n", m.Gap, m.Iterations, nonzero(m.Coefficients(0)))
	}
}

// crossValidate times estimator.CrossValidate of the default 100-λ grid
// (cv.glmnet's) with row i in fold i mod k and the deviance measure, and
// prints λ_min and λ_1se on glmnet's scale (%.6g for reading, %.17g to
// compare) and their 1-based indices (cv.glmnet's cv$index).
func crossValidate(rows *estimator.Rows, h penalty.Penalty, opts estimator.Options, k, reps int) {
	n, _ := rows.X.Dims()
	fold := make([]int, n)
	for i := range fold {
		fold[i] = i % k
	}
	co := &estimator.CVOptions{PathOptions: estimator.PathOptions{Options: opts, NLambda: 100},
		FoldID: fold, Measure: "deviance"}
	var cv *estimator.CV
	stop := startProfile()
	t, err := clock.Median(reps, func() error {
		var err error
		cv, err = estimator.CrossValidate(rows, h, co)
		return err
	})
	stop()
	if err != nil {
		log.Fatal(err)
	}
	g := func(l float64) float64 { return estimator.LambdaGlmnet(l, n) }
	fmt.Printf("cardreg_cv_seconds %.4f\ncardreg_cv_cpu_seconds %.4f\n", t.Wall, t.CPU)
	fmt.Printf("cardreg_lambda_min %.6g\ncardreg_lambda_1se %.6g\n", g(cv.LambdaMin), g(cv.LambdaSE))
	fmt.Printf("cardreg_lambda_min_exact %.17g\ncardreg_lambda_1se_exact %.17g\n", g(cv.LambdaMin), g(cv.LambdaSE))
	fmt.Printf("cardreg_index_min %d\ncardreg_index_1se %d\n", cv.IndexMin+1, cv.IndexSE+1)
	fmt.Printf("cardreg_lambda_max %.17g\ncardreg_cv_len %d\ncardreg_cv_unconverged %d\n",
		g(cv.Lambdas[0]), len(cv.Lambdas), cv.Unconverged)
}

// benchable reports a penalty this benchmark builds: one the family engine
// fits, from p and ν alone.
func benchable(k penalty.Kind) bool { return k.GLM && k.Needs == penalty.NeedsNothing }

// benchPenalty builds the penalty of the table named name with ν = 1 for
// the predictors x.
func benchPenalty(name string, x *mat.Dense) penalty.Penalty {
	kind, ok := penalty.Lookup(name)
	if !ok || !benchable(kind) {
		log.Fatalf("glmbench: -penalty %q: %s", name, strings.Join(penalty.Names(benchable), ", "))
	}
	_, p := x.Dims()
	h, err := kind.NewFor(penalty.Inputs{P: p, Nu: 1})
	if err != nil {
		log.Fatal(err)
	}
	return h
}

// benchFamily returns the family named: binomial or poisson, the two this
// benchmark generates data for and compares with glmnet (a gaussian fit
// runs estimator's least-squares route, which fitbench times).
func benchFamily(name string) datafit.Family {
	if name != "binomial" && name != "poisson" {
		log.Fatalf("glmbench: -family %q: binomial or poisson", name)
	}
	fam, err := datafit.ByName(name)
	if err != nil {
		log.Fatal(err)
	}
	return fam
}

func nonzero(v []float64) int {
	k := 0
	for _, c := range v {
		if c != 0 {
			k++
		}
	}
	return k
}

// certifyCoef returns the relative duality gap of glmnet's β (its
// intercept is replaced by the optimal one for β, which only helps it).
func certifyCoef(path string, rows *estimator.Rows, h penalty.Penalty, lam float64, opts *estimator.Options) float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	f := strings.Fields(string(b))
	_, p := rows.X.Dims()
	beta := make([]float64, p)
	for j := range p {
		beta[j], _ = strconv.ParseFloat(f[j+1], 64)
	}
	gap, err := estimator.Certify(rows, h, lam, beta, opts)
	if err != nil {
		log.Fatal(err)
	}
	return gap
}

// certifyGlmnetPath certifies glmnet's path in the file (one λ a line:
// λ_glmnet, the intercept, the coefficients; the intercept is refitted, as
// in certifyCoef) at each of its λ and prints the number of λ and the
// quantiles of the relative duality gaps (0, 0.25, 0.5, 0.75, 1; the
// nearest rank): the accuracy glmnet's path reaches, which
// bench/glmspeed.sh gives cardreg's path as its tolerance.
func certifyGlmnetPath(path string, rows *estimator.Rows, h penalty.Penalty, opts *estimator.Options) {
	b, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	n, p := rows.X.Dims()
	var gaps []float64
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != p+2 {
			log.Fatalf("glmbench: %s: a line of %d fields, want λ, intercept and %d coefficients", path, len(f), p)
		}
		v := make([]float64, len(f))
		for j, c := range f {
			if v[j], err = strconv.ParseFloat(c, 64); err != nil {
				log.Fatal(err)
			}
		}
		gap, err := estimator.Certify(rows, h, estimator.FromGlmnet(v[0], n), v[2:], opts)
		if err != nil {
			log.Fatal(err)
		}
		gaps = append(gaps, gap)
		fmt.Printf("glmnet_path_gap_at %.17g %.3g\n", v[0], gap)
	}
	if len(gaps) == 0 {
		log.Fatalf("glmbench: %s: no λ", path)
	}
	sorted := slices.Sorted(slices.Values(gaps))
	q := func(f float64) float64 { return sorted[int(f*float64(len(sorted)-1)+0.5)] }
	fmt.Printf("glmnet_path_len %d\nglmnet_path_gap_min %.3g\nglmnet_path_gap_q25 %.3g\nglmnet_path_gap_median %.3g\nglmnet_path_gap_q75 %.3g\nglmnet_path_gap_max %.3g\n",
		len(gaps), q(0), q(0.25), q(0.5), q(0.75), q(1))
}

func generate(path string, fam datafit.Family, n, p int, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 3))
	f, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for j := range p {
		fmt.Fprintf(w, "x%d,", j+1)
	}
	fmt.Fprintln(w, "y")
	beta := make([]float64, p)
	for j := range min(p, 20) {
		beta[j] = []float64{0.5, -0.5}[j%2] * 0.6
	}
	row := make([]string, p+1)
	for range n {
		eta := -0.5
		for j := range p {
			v := r.NormFloat64()
			eta += beta[j] * v
			row[j] = strconv.FormatFloat(v, 'g', 8, 64)
		}
		mu := fam.Mean(eta)
		var yv float64
		if datafit.Classes(fam) {
			if r.Float64() < mu {
				yv = 1
			}
		} else {
			l, k, q := math.Exp(-mu), 0, r.Float64()
			for q > l {
				q *= r.Float64()
				k++
			}
			yv = float64(k)
		}
		row[p] = strconv.FormatFloat(yv, 'g', -1, 64)
		fmt.Fprintln(w, strings.Join(row, ","))
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	f.Close()
}

func read(path string) (*mat.Dense, []float64) {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	sc.Scan()
	var data, y []float64
	p := 0
	for sc.Scan() {
		cells := strings.Split(sc.Text(), ",")
		p = len(cells) - 1
		for j, c := range cells {
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				log.Fatal(err)
			}
			if j == p {
				y = append(y, v)
			} else {
				data = append(data, v)
			}
		}
	}
	return mat.NewDense(len(y), p, data), y
}
