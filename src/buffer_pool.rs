//! A buffer kept from one use to the next in a thread-local slot (a stream
//! check's text, its staging buffer), so that the next use starts with
//! room instead of growing a new buffer by doubling, copying on the way
//! about as much again as it ends up holding.

use std::cell::RefCell;
use std::thread::LocalKey;

/// The buffer kept in `slot`, or a new one when none is.
pub fn take<T: Default>(slot: &'static LocalKey<RefCell<T>>) -> T {
    slot.try_with(|kept| {
        kept.try_borrow_mut()
            .map(|mut kept| std::mem::take(&mut *kept))
            .unwrap_or_default()
    })
    .unwrap_or_default()
}

/// Keeps `buffer` in `slot` for the next `take`, unless the one kept there
/// has as much `room`. During thread teardown the slot may be gone; the
/// buffer is then freed.
pub fn keep<T>(slot: &'static LocalKey<RefCell<T>>, buffer: T, room: fn(&T) -> usize) {
    let _ = slot.try_with(|kept| {
        if let Ok(mut kept) = kept.try_borrow_mut() {
            if room(&kept) < room(&buffer) {
                *kept = buffer;
            }
        }
    });
}
