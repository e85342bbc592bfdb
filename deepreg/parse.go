package deepreg

import (
	"fmt"

	"github.com/cardsparse/cardreg/internal/jsonx"
	"github.com/cardsparse/cardreg/internal/names"
)

// ParseSaved reads back a network written as JSON from a Saved: decoded
// strictly (unknown or duplicate keys, a missing required key refused),
// of SavedFormat and SavedVersion, rebuilt (Network) and checked (Check).
// It returns the record and the network.
func ParseSaved(raw []byte) (*Saved, *Network, error) {
	var m Saved
	if err := jsonx.DecodeStrict(raw, &m, "format", "version", "target", "loss", "penalty", "lambda", "names", "arch", "activations", "weights"); err != nil {
		return nil, nil, fmt.Errorf("corrupted cardreg network: %v", err)
	}
	if m.Format != SavedFormat || m.Version != SavedVersion {
		return nil, nil, fmt.Errorf("network format %s version %d, this cardreg reads %q version %d", names.Short(m.Format), m.Version, SavedFormat, SavedVersion)
	}
	net, err := m.Network()
	if err == nil {
		err = m.Check()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("corrupted cardreg network: %v", err)
	}
	return &m, net, nil
}
