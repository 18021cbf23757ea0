//! Sorting with little code, for the web page's bundle. `std`'s sorts (driftsort and ipnsort) are
//! fast but each element type gets its own 1–3 KB of wasm, and the page sorted ten types: 12 KB of
//! its gzip size (measured). With the feature `small-code`, which only the page's crate turns on,
//! one heap sort, not generic, serves every type through a closure, and a stable sort orders
//! (key, index) pairs with it and then moves the items into place: O(n log n), in place. Without
//! it (the CLI, the fleet's worker) these are `std`'s sorts: the heap sort made a 5,000-node fleet
//! 20–35 % slower. Both give the same order: unstable sorts here are used only where equal items
//! are identical or keys are unique. Called by `cluster`, `control_plane::endpointslice`,
//! `trace::recorder`, `restartscope-report` and `restartscope-figure`. Mirrors no Kubernetes file.

/// `v` in increasing order; equal items in no particular order (as `sort_unstable`).
pub fn sort_unstable<T: Ord>(v: &mut [T]) {
    if cfg!(feature = "small-code") {
        small::sort_unstable(v)
    } else {
        v.sort_unstable()
    }
}

/// `v` by increasing `key`; items with equal keys in no particular order.
pub fn sort_unstable_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    if cfg!(feature = "small-code") {
        small::sort_unstable_by_key(v, key)
    } else {
        v.sort_unstable_by_key(key)
    }
}

/// `v` by increasing `key`, items with equal keys in their order (as `sort_by_key`).
pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
    if cfg!(feature = "small-code") {
        small::sort_by_key(v, key)
    } else {
        v.sort_by_key(key)
    }
}

/// `v` sorted and without repeats (as `sort_unstable` then `dedup`).
pub fn sort_dedup<T: Ord>(v: &mut Vec<T>) {
    sort_unstable(v);
    v.dedup();
}

/// The sorts with little code.
mod small {
    /// Heap sort of `n` items through `op`: `op(i, j, false)` answers "item `i` < item `j`";
    /// `op(i, j, true)` swaps them.
    fn heap_sort(n: usize, op: &mut dyn FnMut(usize, usize, bool) -> bool) {
        fn sift(op: &mut dyn FnMut(usize, usize, bool) -> bool, mut root: usize, end: usize) {
            loop {
                let mut child = 2 * root + 1;
                if child >= end {
                    return;
                }
                if child + 1 < end && op(child, child + 1, false) {
                    child += 1;
                }
                if !op(root, child, false) {
                    return;
                }
                op(root, child, true);
                root = child;
            }
        }
        for i in (0..n / 2).rev() {
            sift(op, i, n);
        }
        for end in (1..n).rev() {
            op(0, end, true);
            sift(op, 0, end);
        }
    }

    /// `v` in increasing order; equal items in no particular order (as `sort_unstable`).
    pub fn sort_unstable<T: Ord>(v: &mut [T]) {
        heap_sort(v.len(), &mut |i, j, swap| {
            if swap {
                v.swap(i, j);
                false
            } else {
                v[i] < v[j]
            }
        });
    }

    /// `v` by increasing `key`; items with equal keys in no particular order.
    pub fn sort_unstable_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
        heap_sort(v.len(), &mut |i, j, swap| {
            if swap {
                v.swap(i, j);
                false
            } else {
                key(&v[i]) < key(&v[j])
            }
        });
    }

    /// `v` by increasing `key`, items with equal keys in their order (as `sort_by_key`).
    pub fn sort_by_key<T, K: Ord>(v: &mut [T], key: impl Fn(&T) -> K) {
        let mut keyed: Vec<(K, usize)> = v.iter().enumerate().map(|(i, x)| (key(x), i)).collect();
        sort_unstable(&mut keyed);
        // Position `j` takes the item at `from[j]`; each cycle of the permutation is walked once.
        let mut from: Vec<usize> = keyed.into_iter().map(|(_, i)| i).collect();
        for i in 0..from.len() {
            let mut j = i;
            while from[j] != i {
                let k = from[j];
                v.swap(j, k);
                from[j] = j;
                j = k;
            }
            from[j] = j;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn as_std(mut v in proptest::collection::vec((0u8..8, any::<u16>()), 0..300)) {
            let mut want = v.clone();
            want.sort();
            let mut got = v.clone();
            small::sort_unstable(&mut got);
            prop_assert_eq!(&got, &want);
            // Stable: equal keys keep their order, as std's stable sort.
            let mut want = v.clone();
            want.sort_by_key(|x| x.0);
            small::sort_by_key(&mut v, |x| x.0);
            prop_assert_eq!(&v, &want);
            let mut u = v.clone();
            small::sort_unstable_by_key(&mut u, |x| x.0);
            prop_assert!(u.windows(2).all(|w| w[0].0 <= w[1].0));
            let mut d: Vec<u8> = v.iter().map(|x| x.0).collect();
            let mut dw = d.clone();
            dw.sort_unstable();
            dw.dedup();
            sort_dedup(&mut d);
            prop_assert_eq!(d, dw);
        }
    }
}
