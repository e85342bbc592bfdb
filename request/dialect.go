package request

// Dialect is how a caller spells options and commands in messages.
type Dialect struct {
	// Dash prefixes an option's name: "--" for flags.
	Dash string
	// Program prefixes a command's name: "cardreg ".
	Program string
	// FactorSource says how data come to hold factors.
	FactorSource string
	// Theory reports that fit takes lambda theory (Theorem 2's λ, which
	// needs the rows and σ: the command line's).
	Theory bool
	// FactorOptions are the names of the options of factor predictors,
	// refused where the rows are not read into memory.
	FactorOptions []string
}

// CommandLine is the command line's dialect.
var CommandLine = Dialect{Dash: "--", Program: "cardreg ", FactorSource: "a text column, --factor, --ordinal or --bin", Theory: true}

// JSON is the bindings' dialect.
var JSON = Dialect{FactorSource: "options: factors"}

// o spells option name.
func (d Dialect) o(name string) string { return d.Dash + name }

// c spells command cmd.
func (d Dialect) c(cmd string) string { return d.Program + cmd }
