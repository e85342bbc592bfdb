package request

import (
	"strings"

	"github.com/cardsparse/cardreg/datafit"
	"github.com/cardsparse/cardreg/estimator"
	"github.com/cardsparse/cardreg/factor"
	"github.com/cardsparse/cardreg/penalty"
)

// description is Describe's document: what the library offers, read from
// its registries, so that Python and R offer it without lists of their own.
type description struct {
	Families  []familyDoc  `json:"families"`
	Penalties []penaltyDoc `json:"penalties"`
	// Options are, per command (fit, path, cv), the option names it
	// accepts: the others are refused as having no effect there.
	Options map[string][]string `json:"options"`
}

// familyDoc describes one family of datafit's registry.
type familyDoc struct {
	Name string `json:"name"`
	Link string `json:"link"`
	// Parameter is the family's parameter (null for none).
	Parameter *datafit.Parameter `json:"parameter"`
	// Measures are cross-validation's measures for it, the default first.
	Measures []measureDoc `json:"measures"`
}

// measureDoc is one cross-validation measure and cv.glmnet's title of it.
type measureDoc struct {
	Name  string `json:"name"`
	Title string `json:"title"`
}

// penaltyDoc describes one penalty of penalty's table.
type penaltyDoc struct {
	Name string `json:"name"`
	// Nu reports that the penalty takes "nu".
	Nu bool `json:"nu"`
	// Alpha reports that the penalty takes "alpha" (the elastic net's
	// mix, glmnet's alpha; default 1).
	Alpha bool `json:"alpha"`
	// Inputs are the options it needs besides the data ("groups", "G").
	Inputs []string `json:"inputs"`
	// GLM reports that every family fits it (else gaussian only).
	GLM bool `json:"glm"`
	// Grid reports that a λ grid is generated for it (path and cv
	// without "lambda").
	Grid bool `json:"grid"`
}

// inputOptions names the option that carries each input a penalty needs.
var inputOptions = map[penalty.Input]string{penalty.NeedsGroups: "groups", penalty.NeedsG: "G"}

// measureTitles are cv.glmnet's names of the measures but the deviance,
// which is named after its family (the gaussian's is the mse's).
var measureTitles = map[string]string{"mse": "Mean-Squared Error", "mae": "Mean Absolute Error",
	"class": "Misclassification Error", "auc": "AUC"}

// Describe returns the description of the families (name, link,
// parameter, the cross-validation measures), the penalties (name, inputs)
// and the option names each command accepts, to be marshalled to JSON:
// what the C library's cardreg_describe returns to the bindings.
func Describe() any {
	d := description{Options: map[string][]string{}}
	names := datafit.Names()
	for i, fam := range datafit.Families() {
		d.Families = append(d.Families, describeFamily(names[i], fam))
	}
	for _, name := range penalty.Names(nil) {
		k, _ := penalty.Lookup(name)
		pd := penaltyDoc{Name: k.Name, Nu: k.Nu != penalty.NoNu, Alpha: k.Alpha, Inputs: []string{}, GLM: k.GLM, Grid: k.Grid}
		if opt, ok := inputOptions[k.Needs]; ok {
			pd.Inputs = append(pd.Inputs, opt)
		}
		d.Penalties = append(d.Penalties, pd)
	}
	for _, cmd := range []string{"fit", "path", "cv"} {
		d.Options[cmd] = commandOptions(cmd)
	}
	return d
}

// describeFamily is the entry of the family called name (without its
// parameter), fam at its registry value.
func describeFamily(name string, fam datafit.Family) familyDoc {
	fd := familyDoc{Name: name, Link: fam.Link()}
	if p, ok := fam.(datafit.Parameterized); ok {
		par := p.Parameter()
		fd.Parameter = &par
	}
	for _, m := range estimator.Measures(fam) {
		title := measureTitles[m]
		if name == "gaussian" && m == "deviance" {
			title = measureTitles["mse"] // cv.glmnet's name: the same values
		} else if m == "deviance" {
			title = strings.ToUpper(name[:1]) + name[1:] + " Deviance"
		}
		fd.Measures = append(fd.Measures, measureDoc{Name: m, Title: title})
	}
	return fd
}

// commandOptions returns the options command cmd accepts: those the
// options' table (Rules) does not refuse in cmd when given alone, for
// some penalty (groups is grouped's), with factors in the data and, for
// fit, λ cross-validated (the setting in which fit honours most
// options).
func commandOptions(cmd Command) []string {
	var out []string
	for _, name := range OptionNames() {
		for _, pen := range append(penalty.Names(nil), factor.NumericNone) {
			r := &Request{Given: map[string]bool{name: true}, Factors: []FactorInfo{{}}, Penalty: pen, Dialect: JSON}
			r.Defaults()
			if r.Lambda.Parse(cmd, false, JSON) == nil && r.CheckEffect(cmd) == nil {
				out = append(out, name)
				break
			}
		}
	}
	return out
}
