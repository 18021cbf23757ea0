package draw

import "testing"

// The model's own values (crates/sim/tests/oracle.rs print_draws_for_the_go_port): the harness
// follows the model's random path only if its draws are the same bits.
func TestDrawsAreTheModels(t *testing.T) {
	for _, c := range []struct {
		seed uint64
		p    Purpose
		node uint16
		key  [3]uint64
		want float64
	}{
		{1, Lease, 0, [3]uint64{0, 0, 0}, 0.044278899977253205},
		{7, WorkerJitter, 0, [3]uint64{1 << 32, 2, 1}, 0.30954259777188087},
		{42, LeaseJitter, 3, [3]uint64{18446744073623151616, 5, 0}, 0.10432479986214083},
	} {
		if got := Draw(c.seed, c.p, c.node, c.key); got != c.want {
			t.Errorf("Draw(%d, %d, %d, %v) = %v, the model draws %v", c.seed, c.p, c.node, c.key, got, c.want)
		}
	}
}
