package predict

import (
	"fmt"
	"strconv"

	"github.com/cardsparse/cardreg/data"
	"github.com/cardsparse/cardreg/deepreg"
	"github.com/cardsparse/cardreg/report"
	"gonum.org/v1/gonum/mat"
)

// Network returns the saved network raw's prediction (deepreg.ParseSaved)
// of each row of the table t, as CSV text: the output (squared loss) or
// the class with the largest output (xent), a number or a label. Errors
// start with modelName (the model's) or dataPath (the data's).
func Network(raw []byte, modelName string, t *data.Table, dataPath string) ([]string, error) {
	m, net, err := deepreg.ParseSaved(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", modelName, err)
	}
	x := mat.NewDense(t.Rows(), len(m.Names), nil)
	for k, name := range m.Names {
		j, err := t.Index(name)
		if err != nil {
			return nil, fmt.Errorf("%s: the network needs input %q: %v", dataPath, name, err)
		}
		x.SetCol(k, t.Cols()[j])
	}
	m.Inputs(x)
	out, err := net.Predict(x)
	if err != nil {
		return nil, err
	}
	preds, err := m.Predict(out)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", dataPath, err)
	}
	text := make([]string, len(preds))
	for i, p := range preds {
		if p.IsLabel {
			text[i] = report.CSVName(p.Label)
		} else {
			text[i] = strconv.FormatFloat(p.Value, 'g', 17, 64)
		}
	}
	return text, nil
}
