// Package draw is the model's keyed random draws (crates/sim/src/core/rng.rs), so the harness
// takes the same timing randomness as the model (a worker's initial sleep, ticker phases, lease
// jitter, controller phases): both runs follow the same random path and differ only where the
// rules do. Every decision stays Go's.
package draw

// Purpose is part of a draw's key (rng.rs Purpose).
type Purpose uint64

const (
	Lease         Purpose = 1
	Nlc           Purpose = 2
	ProbePhase    Purpose = 3
	WorkerJitter  Purpose = 4
	LeaseJitter   Purpose = 5
	PlegPhase     Purpose = 6
	TaintingPhase Purpose = 7
)

func mix(z uint64) uint64 {
	z += 0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

// Draw is rng.rs draw: uniform in [0, 1).
func Draw(seed uint64, p Purpose, node uint16, key [3]uint64) float64 {
	h := mix(seed)
	h = mix(h ^ (uint64(p) | uint64(node)<<16))
	h = mix(h ^ key[0])
	h = mix(mix(h^key[1]) ^ key[2])
	return float64(h>>11) / float64(uint64(1)<<53)
}
