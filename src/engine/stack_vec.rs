//! A fixed-capacity list on the stack, for the short lists the move generator builds for
//! every unit on every ply (targets, cargo selections) without touching the allocator.

#[derive(Clone, Copy)]
pub(crate) struct StackVec<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> StackVec<T, N> {
    pub fn new() -> Self {
        StackVec {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// Adds an item; the capacities are chosen above every possible length, so a full list
    /// is a bug.
    pub fn push(&mut self, item: T) {
        assert!(self.len < N, "StackVec capacity {N} exceeded");
        self.items[self.len] = item;
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Drops the items after the first `len`.
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy + Default, const N: usize> Extend<T> for StackVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}
