//! What was last read from a text, kept by the whole text: the boundary
//! reads the same small texts (a response's copy, a guarded call's setup,
//! check options) call after call, and each reading is a function of its
//! text alone. An entry is found by comparing the whole text, never a hash
//! of it, so no text can be taken for another; a hostile run of new texts
//! only displaces entries.

/// The last `capacity` readings of texts up to `limit` bytes, oldest
/// displaced first.
pub struct ReadMemo<T> {
    entries: Vec<(Box<str>, T)>,
    next: usize,
    capacity: usize,
    limit: usize,
}

impl<T: Clone> ReadMemo<T> {
    #[must_use]
    pub const fn new(capacity: usize, limit: usize) -> Self {
        ReadMemo {
            entries: Vec::new(),
            next: 0,
            capacity,
            limit,
        }
    }

    /// The reading kept for `text` that `fits`.
    pub fn get(&self, text: &str, fits: impl Fn(&T) -> bool) -> Option<T> {
        self.entries
            .iter()
            .find(|(key, value)| **key == *text && fits(value))
            .map(|(_, value)| value.clone())
    }

    /// Keeps `value` as the reading of `text`, unless the text is too long to keep.
    pub fn put(&mut self, text: &str, value: T) {
        if text.len() > self.limit || self.capacity == 0 {
            return;
        }
        let entry = (text.into(), value);
        // Filled in order, then overwritten oldest first.
        match self.entries.get_mut(self.next) {
            Some(slot) => *slot = entry,
            None => self.entries.push(entry),
        }
        self.next = (self.next + 1) % self.capacity;
    }
}

/// The reading of `text` that `memo` keeps and that `fits`, or else what
/// `read` gives, kept for next time when it succeeds.
pub fn remembered<T: Clone, E>(
    memo: &'static std::thread::LocalKey<std::cell::RefCell<ReadMemo<T>>>,
    text: &str,
    fits: impl Fn(&T) -> bool,
    read: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    if let Some(known) = memo.with(|recent| recent.borrow().get(text, fits)) {
        return Ok(known);
    }
    let value = read()?;
    memo.with(|recent| recent.borrow_mut().put(text, value.clone()));
    Ok(value)
}

#[cfg(test)]
mod tests;
