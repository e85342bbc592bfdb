// Package buildinfo says which build of cardreg is running: the version
// cardreg --version prints (and the bindings report).
package buildinfo

import "runtime/debug"

// Version is the module version cardreg was built from (a release tag
// with go install …@version), else the VCS revision of a build from a
// clone, else "(devel)".
func Version() string { return version(debug.ReadBuildInfo()) }

// version is Version of the build information bi (ok false: none).
func version(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "(devel)"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	rev, modified := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "(devel) " + bi.GoVersion
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += " (modified)"
	}
	return "(devel) " + rev + " " + bi.GoVersion
}
