// Package cyclo measures the cyclomatic complexity of Go functions with the
// rules of gocyclo (github.com/fzipp/gocyclo, v0.6.0), from the standard
// library alone, so that a test can hold the module to the limits
// without a dependency.
//
// A function's complexity is 1, plus 1 for each if, for and range
// statement, each case clause of a switch or type switch other than
// default, each comm clause of a select other than default, and each &&
// and || operator. Function literals count towards the function that
// contains them. As gocyclo does, a file's functions are its function and
// method declarations and the function literals a package-level var or
// const declaration assigns, which take the name of the first name in
// their declaration.
//
// Unlike gocyclo, a //gocyclo:ignore directive exempts nothing: every
// function is measured.
package cyclo

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
)

// Func is one measured function.
type Func struct {
	// Pkg is the name of the function's package.
	Pkg string
	// Name is "Name" for a function and "(Recv).Name" or "(*Recv).Name"
	// for a method (type parameters dropped), as gocyclo prints it.
	Name string
	// Pos is where the declaration starts.
	Pos token.Position
	// Complexity is the cyclomatic complexity.
	Complexity int
}

// String formats f as a line of gocyclo's output:
// "complexity package name file:line:column".
func (f Func) String() string {
	return fmt.Sprintf("%d %s %s %s", f.Complexity, f.Pkg, f.Name, f.Pos)
}

// Of returns the cyclomatic complexity of the syntax tree n, normally an
// *ast.FuncDecl or an *ast.FuncLit.
func Of(n ast.Node) int {
	c := 1
	ast.Inspect(n, func(n ast.Node) bool {
		if branches(n) {
			c++
		}
		return true
	})
	return c
}

// branches reports whether the node n adds one to a complexity.
func branches(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
		return true
	case *ast.CaseClause:
		return n.List != nil
	case *ast.CommClause:
		return n.Comm != nil
	case *ast.BinaryExpr:
		return n.Op == token.LAND || n.Op == token.LOR
	}
	return false
}

// File measures the functions of the parsed file f, in the order they are
// declared.
func File(fset *token.FileSet, f *ast.File) []Func {
	var out []Func
	add := func(n ast.Node, name string) {
		out = append(out, Func{
			Pkg:        f.Name.Name,
			Name:       name,
			Pos:        fset.Position(n.Pos()),
			Complexity: Of(n),
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			add(d, funcName(d))
		case *ast.GenDecl:
			for _, lit := range funcLits(d) {
				add(lit.fn, lit.name)
			}
		}
	}
	return out
}

// namedLit is a function literal a package-level declaration assigns.
type namedLit struct {
	fn   *ast.FuncLit
	name string
}

// funcLits returns the function literals among the values of d, each named
// after the first name of its spec.
func funcLits(d *ast.GenDecl) []namedLit {
	var out []namedLit
	for _, s := range d.Specs {
		vs, ok := s.(*ast.ValueSpec)
		if !ok {
			continue
		}
		for _, v := range vs.Values {
			if fn, ok := v.(*ast.FuncLit); ok {
				out = append(out, namedLit{fn, vs.Names[0].Name})
			}
		}
	}
	return out
}

// funcName returns "Name" for a function, "(Recv).Name" for a method.
func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || d.Recv.NumFields() == 0 {
		return d.Name.Name
	}
	return fmt.Sprintf("(%s).%s", recvName(d.Recv.List[0].Type), d.Name.Name)
}

// recvName spells a receiver type without its type parameters; like
// gocyclo, it does not look inside parentheses.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	}
	return "BADRECV"
}

// Dir measures the functions of every .go file under root, test files
// included, skipping the directories the go command skips as gocyclo does:
// testdata, vendor and names starting with "." or "_". Positions name the
// files by their path from root, with forward slashes.
func Dir(root string) ([]Func, error) {
	var out []Func
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if path != root && skipDir(e.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(e.Name(), ".go") {
			return nil
		}
		funcs, err := parseFile(root, path)
		out = append(out, funcs...)
		return err
	})
	return out, err
}

// skipDir reports whether Dir leaves out a directory with this name.
func skipDir(name string) bool {
	return name == "testdata" || name == "vendor" ||
		strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// parseFile measures the file at path, naming it by its path from root.
func parseFile(root, path string) ([]Func, error) {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	funcs := File(fset, f)
	for i := range funcs {
		funcs[i].Pos.Filename = filepath.ToSlash(rel)
	}
	return funcs, nil
}
