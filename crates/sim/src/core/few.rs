//! `Few<T, N>`: a list of `Copy` values kept inline up to `N` (on the heap beyond), for the
//! per-container lists of a pod (statuses, probe workers, results, back-off). Most pods have one
//! or two containers, so a fleet of thousands of nodes keeps these inside the pod's own record
//! instead of one small heap object each. Reads and writes go through the slice (`Deref`).
//! Not Kubernetes code.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// `repr(u8)`: the tag, the length and the first values are adjacent, so reading a short list
/// usually touches one cache line. (Left to itself Rust keeps the tag in a niche of the `Vec`
/// variant, away from the values: in a fleet, whose pods do not fit in the cache, that was a
/// second miss per list read.) Costs a few bytes for lists of bytes.
#[derive(Clone)]
#[repr(u8)]
pub enum Few<T: Copy + Default, const N: usize> {
    /// The first `len` values are the list; the rest hold `T::default()`.
    Inline {
        len: u8,
        buf: [T; N],
    },
    Heap(Vec<T>),
}

impl<T: Copy + Default, const N: usize> Few<T, N> {
    pub fn new() -> Self {
        Few::Inline {
            len: 0,
            buf: [T::default(); N],
        }
    }

    /// `n` copies of `v` (`vec![v; n]`).
    pub fn from_elem(v: T, n: usize) -> Self {
        if n <= N && n <= u8::MAX as usize {
            let mut buf = [T::default(); N];
            buf[..n].fill(v);
            Few::Inline { len: n as u8, buf }
        } else {
            Few::Heap(vec![v; n])
        }
    }

    pub fn push(&mut self, v: T) {
        match self {
            Few::Inline { len, buf } => {
                let n = *len as usize;
                if n < N && n < u8::MAX as usize {
                    buf[n] = v;
                    *len += 1;
                } else {
                    let mut h = Vec::with_capacity(n + 1);
                    h.extend_from_slice(&buf[..n]);
                    h.push(v);
                    *self = Few::Heap(h);
                }
            }
            Few::Heap(h) => h.push(v),
        }
    }
}

impl<T: Copy + Default, const N: usize> Default for Few<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for Few<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Few::Inline { len, buf } => &buf[..*len as usize],
            Few::Heap(h) => h,
        }
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Few<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Few::Inline { len, buf } => &mut buf[..*len as usize],
            Few::Heap(h) => h,
        }
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Few<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for Few<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Few<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(it: I) -> Self {
        let mut f = Few::new();
        for v in it {
            f.push(v);
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_then_heap_read_the_same() {
        let mut a: Few<u32, 2> = Few::new();
        let mut v = Vec::new();
        for i in 0..5 {
            a.push(i);
            v.push(i);
            assert_eq!(&*a, &v[..]);
            assert_eq!(matches!(a, Few::Inline { .. }), i < 2);
        }
        let b: Few<u32, 2> = v.iter().copied().collect();
        assert_eq!(a, b);
        let mut c: Few<bool, 2> = Few::from_elem(false, 2);
        c[1] = true;
        assert_eq!(&*c, &[false, true]);
        assert_eq!(&*Few::<u8, 1>::from_elem(7, 3), &[7, 7, 7]);
        assert_eq!(format!("{:?}", c), "[false, true]");
    }
}
