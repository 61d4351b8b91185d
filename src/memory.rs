//! The judge's allocator: the system's, except that the large blocks of an
//! adjudication live on huge pages.
//!
//! A movement phase of 100,000 fleets touches about 18 MB of tables and results, far
//! more than the processor's TLB covers in 4 KB pages, so the larger phases paid a page
//! walk for much of what they read and wrote (`pbem bench` grew 10.4×–10.6× from 10,000
//! to 100,000 fleets on the Intel machine of 2026-11-25, 10.3×–10.4× with the whole heap
//! on huge pages). Inside [`large_pages`], which wraps every adjudication, a block of
//! [`LARGE`] bytes or more is therefore mapped here, 2 MB aligned and rounded up to whole
//! 2 MB pages, with `MADV_HUGEPAGE`, so the kernel backs it with huge pages where the
//! system's setting allows (`transparent_hugepage` set to `always` or `madvise`). A freed
//! block is kept, up to [`KEPT`] bytes in all, for the next block of the same length: a
//! phase then reuses the previous phase's pages instead of mapping (and faulting in)
//! fresh ones.
//!
//! Everything else goes to the system allocator as before: the rest of the judge (its
//! configuration, sled) holds large blocks for long, where rounding them up to huge pages
//! would cost memory (a `serve` hosting 10,000 games peaked at 119 MB instead of 90 MB
//! with every large block here) for no gain. An ordinary game's phase never allocates a
//! block this large, so it never comes here either.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ptr;
use std::sync::Mutex;

/// The size from which a block allocated inside [`large_pages`] gets pages of its own.
pub const LARGE: usize = 256 << 10;
/// A huge page on x86-64 and most aarch64 kernels.
const HUGE: usize = 2 << 20;
/// At most this many bytes of freed large blocks are kept for reuse.
pub const KEPT: usize = 64 << 20;
/// At most this many freed blocks are kept, and this many blocks live at once (beyond
/// that, a block goes to the system allocator): the lists are fixed arrays, since the
/// allocator may not allocate.
const SLOTS: usize = 64;

/// The allocator; `main` installs it with `#[global_allocator]`.
pub struct LargePages;

thread_local! {
    /// Whether this thread is inside [`large_pages`].
    static INSIDE: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with its large blocks on huge pages (when [`LargePages`] is the global
/// allocator; otherwise it only runs `f`). The blocks may be freed anywhere, later.
pub fn large_pages<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            INSIDE.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(INSIDE.with(|c| c.replace(true)));
    f()
}

/// Whether the block at `p` is one of these pages (for tests and measurements).
pub fn on_large_pages(p: *const u8) -> bool {
    live_len(p.cast_mut()).is_some()
}

/// What a benchmark should say of huge pages: the kernel's setting for them and how
/// much of this process's memory they back now.
pub fn huge_pages_note() -> String {
    let setting = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled")
        .ok()
        .and_then(|s| {
            let (_, rest) = s.split_once('[')?;
            Some(rest.split_once(']')?.0.to_string())
        });
    let backed = std::fs::read_to_string("/proc/self/smaps_rollup")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("AnonHugePages:"))
                .map(|v| v.trim().to_string())
        });
    let Some(setting) = setting else {
        return "large blocks of a phase on huge pages: the kernel does not say whether it \
                gives any"
            .to_string();
    };
    let mut note = format!(
        "large blocks of a phase on huge pages: the kernel's transparent huge pages are \
         `{setting}`"
    );
    if let Some(backed) = backed {
        note += &format!(", {backed} of this process on them now");
    }
    note
}

/// A list of blocks, (address, length), in a fixed array.
struct Blocks {
    list: [(usize, usize); SLOTS],
    count: usize,
    bytes: usize,
}

impl Blocks {
    const fn new() -> Blocks {
        Blocks {
            list: [(0, 0); SLOTS],
            count: 0,
            bytes: 0,
        }
    }

    fn push(&mut self, addr: usize, len: usize) -> bool {
        if self.count == SLOTS {
            return false;
        }
        self.list[self.count] = (addr, len);
        self.count += 1;
        self.bytes += len;
        true
    }

    /// Takes out the first block for which `pick` holds.
    fn take(&mut self, pick: impl Fn(usize, usize) -> bool) -> Option<(usize, usize)> {
        let at = self.list[..self.count]
            .iter()
            .position(|&(a, l)| pick(a, l))?;
        let found = self.list[at];
        self.list[at] = self.list[self.count - 1];
        self.count -= 1;
        self.bytes -= found.1;
        Some(found)
    }
}

/// The blocks handed out and not yet given back, and the freed ones kept for reuse.
struct Pages {
    live: Blocks,
    kept: Blocks,
}

static PAGES: Mutex<Pages> = Mutex::new(Pages {
    live: Blocks::new(),
    kept: Blocks::new(),
});

fn pages() -> std::sync::MutexGuard<'static, Pages> {
    // The lists are updated in single steps that cannot panic, so a poisoned lock
    // still guards consistent lists.
    PAGES.lock().unwrap_or_else(|e| e.into_inner())
}

fn wanted(layout: &Layout) -> bool {
    layout.size() >= LARGE && layout.align() <= HUGE && INSIDE.with(|c| c.get())
}

/// The length of the mapping that holds a large block of `size` bytes.
fn mapped_len(size: usize) -> usize {
    size.div_ceil(HUGE) * HUGE
}

/// A block for `size` bytes, 2 MB aligned, on pages of its own: a kept one, or a fresh
/// mapping. The flag tells whether it is known to be zeroed (a fresh mapping). `None`
/// when no more blocks can be tracked or none can be mapped: the caller then asks the
/// system allocator.
fn take(size: usize) -> Option<(*mut u8, bool)> {
    let len = mapped_len(size);
    let mut p = pages();
    if p.live.count == SLOTS {
        return None;
    }
    if let Some((addr, _)) = p.kept.take(|_, l| l == len) {
        p.live.push(addr, len);
        return Some((addr as *mut u8, false));
    }
    // Mapping happens under the lock: it is rare (the first phases of a size), and
    // keeps the live list from filling up meanwhile.
    let addr = map(len)?;
    p.live.push(addr as usize, len);
    Some((addr, true))
}

/// Gives back the block at `addr` if it is one of these pages: kept for reuse while
/// there is room, else unmapped. Returns whether it was.
fn give_back(addr: *mut u8) -> bool {
    let mut p = pages();
    let Some((_, len)) = p.live.take(|a, _| a == addr as usize) else {
        return false;
    };
    if p.kept.bytes + len <= KEPT && p.kept.push(addr as usize, len) {
        return true;
    }
    drop(p);
    unmap(addr, len);
    true
}

/// The mapped length of the live block at `addr`, if it is one of these pages.
fn live_len(addr: *mut u8) -> Option<usize> {
    let p = pages();
    p.live.list[..p.live.count]
        .iter()
        .find(|&&(a, _)| a == addr as usize)
        .map(|&(_, l)| l)
}

#[cfg(target_os = "linux")]
fn map(len: usize) -> Option<*mut u8> {
    // Map a huge page more than asked, then cut the ends so that the block starts on a
    // 2 MB boundary (the kernel can only back aligned 2 MB ranges with huge pages).
    let span = len.checked_add(HUGE)?;
    // SAFETY: an anonymous private mapping at an address of the kernel's choosing
    // touches no existing memory.
    let raw = unsafe {
        libc::mmap(
            ptr::null_mut(),
            span,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        )
    };
    if raw == libc::MAP_FAILED {
        return None;
    }
    let start = raw as usize;
    let aligned = start.next_multiple_of(HUGE);
    let head = aligned - start;
    let tail = span - head - len;
    // SAFETY: both ranges lie inside the mapping just made, and nothing points into
    // them; the madvise range is the block itself.
    unsafe {
        if head > 0 {
            libc::munmap(raw, head);
        }
        if tail > 0 {
            libc::munmap((aligned + len) as *mut libc::c_void, tail);
        }
        // Only advice: without it (or where the kernel says no) the block is ordinary
        // memory, which is still correct.
        libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    Some(aligned as *mut u8)
}

#[cfg(target_os = "linux")]
fn unmap(addr: *mut u8, len: usize) {
    // SAFETY: `addr` and `len` are exactly a block `map` made, which its owner has
    // given up.
    unsafe {
        libc::munmap(addr.cast(), len);
    }
}

#[cfg(not(target_os = "linux"))]
fn map(len: usize) -> Option<*mut u8> {
    // SAFETY: the layout has a nonzero size (a large block) and a valid alignment.
    let p = unsafe { System.alloc(Layout::from_size_align(len, HUGE).ok()?) };
    (!p.is_null()).then_some(p)
}

#[cfg(not(target_os = "linux"))]
fn unmap(addr: *mut u8, len: usize) {
    // SAFETY: allocated by `map` with this very layout.
    unsafe { System.dealloc(addr, Layout::from_size_align_unchecked(len, HUGE)) }
}

// SAFETY: every block handed out is either the system allocator's, given back to it,
// or a mapping of at least the layout's size, 2 MB aligned (so aligned for any layout
// routed here), recorded in the live list until it is given back, and used by one owner
// at a time. A block is recognised as ours by its address in the live list, never by its
// layout, so a block allocated inside [`large_pages`] may be freed outside it.
unsafe impl GlobalAlloc for LargePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if wanted(&layout) {
            if let Some((p, _)) = take(layout.size()) {
                return p;
            }
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if wanted(&layout) {
            match take(layout.size()) {
                Some((p, true)) => return p,
                Some((p, false)) => {
                    // SAFETY: a kept block of at least `layout.size()` bytes, now ours.
                    unsafe { ptr::write_bytes(p, 0, layout.size()) };
                    return p;
                }
                None => {}
            }
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        if layout.size() >= LARGE && give_back(p) {
            return;
        }
        // SAFETY: the caller's contract, passed on: not one of these pages, so the
        // system allocator's.
        unsafe { System.dealloc(p, layout) }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller guarantees the new layout is valid.
        let new = unsafe { Layout::from_size_align_unchecked(new_size, layout.align()) };
        let ours = if layout.size() >= LARGE {
            live_len(p)
        } else {
            None
        };
        match ours {
            // Still fits the pages it has (and would not fit in fewer).
            Some(len) if new_size <= len && mapped_len(new_size) == len => p,
            // SAFETY: the caller's contract, passed on: the system allocator's block,
            // staying with it.
            None if !wanted(&new) => unsafe { System.realloc(p, layout, new_size) },
            _ => {
                // SAFETY: `new` has a nonzero size (the caller's contract); the copy
                // covers what both blocks hold; the old block is then given up, to
                // whichever allocator it came from.
                unsafe {
                    let q = self.alloc(new);
                    if !q.is_null() {
                        ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                        self.dealloc(p, layout);
                    }
                    q
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(size: usize) -> Layout {
        Layout::from_size_align(size, 8).unwrap()
    }

    #[test]
    fn large_blocks_inside_the_scope_are_aligned_reused_and_zeroed_when_asked() {
        let a = LargePages;
        large_pages(|| unsafe {
            let p = a.alloc(layout(3 << 20));
            assert_eq!(p as usize % HUGE, 0, "2 MB aligned");
            assert_eq!(live_len(p), Some(4 << 20), "rounded up to whole huge pages");
            ptr::write_bytes(p, 0xAB, 3 << 20);
            a.dealloc(p, layout(3 << 20));
            assert_eq!(live_len(p), None, "given back");
            // A block of the same mapped length may be the one just freed: zeroed when
            // asked all the same.
            let q = a.alloc_zeroed(layout(4 << 20));
            assert!(std::slice::from_raw_parts(q, 4 << 20)
                .iter()
                .all(|&b| b == 0));
            a.dealloc(q, layout(4 << 20));
        });
    }

    #[test]
    fn outside_the_scope_and_for_small_blocks_the_system_allocator_serves() {
        let a = LargePages;
        unsafe {
            let p = a.alloc(layout(3 << 20));
            assert_eq!(live_len(p), None, "outside the scope");
            a.dealloc(p, layout(3 << 20));
        }
        large_pages(|| unsafe {
            let p = a.alloc(layout(1000));
            assert_eq!(live_len(p), None, "small");
            a.dealloc(p, layout(1000));
        });
    }

    #[test]
    fn a_block_allocated_inside_the_scope_is_freed_and_resized_outside_it() {
        let a = LargePages;
        let p = large_pages(|| unsafe { a.alloc(layout(LARGE)) });
        assert!(live_len(p).is_some());
        unsafe {
            for i in 0..1000 {
                *p.add(i) = i as u8;
            }
            // Outside the scope, growing past its pages moves it to the system allocator.
            let q = a.realloc(p, layout(LARGE), 3 << 20);
            assert_eq!(live_len(p), None);
            assert_eq!(live_len(q), None);
            for i in 0..1000 {
                assert_eq!(*q.add(i), i as u8);
            }
            a.dealloc(q, layout(3 << 20));
        }
    }

    #[test]
    fn realloc_across_the_threshold_keeps_the_contents() {
        let a = LargePages;
        large_pages(|| unsafe {
            let p = a.alloc(layout(1000));
            for i in 0..1000 {
                *p.add(i) = i as u8;
            }
            // Small to large, within the same pages, larger pages, and back to small.
            let p1 = a.realloc(p, layout(1000), LARGE + 5);
            assert!(live_len(p1).is_some());
            let p2 = a.realloc(p1, layout(LARGE + 5), LARGE + 100);
            assert_eq!(p1, p2, "same pages: the block stays");
            let p3 = a.realloc(p2, layout(LARGE + 100), 5 << 20);
            assert_eq!(live_len(p3), Some(6 << 20));
            let p4 = a.realloc(p3, layout(5 << 20), 500);
            assert_eq!(live_len(p3), None);
            for i in 0..500 {
                assert_eq!(*p4.add(i), i as u8);
            }
            a.dealloc(p4, layout(500));
        });
        assert!(pages().kept.bytes <= KEPT);
    }

    #[test]
    fn threads_allocating_at_once_each_keep_their_own_blocks() {
        // Four threads, each holding up to 24 large blocks at a time (more than the live
        // list tracks, so some go to the system allocator), freeing them in a scrambled
        // order: every block keeps what its owner wrote at both ends.
        let threads: Vec<_> = (0..4u64)
            .map(|t| {
                std::thread::spawn(move || {
                    let a = LargePages;
                    let mut held: Vec<(*mut u8, usize, u8)> = Vec::new();
                    let mut x = t + 1;
                    for round in 0..120u64 {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let size = LARGE + (x >> 40) as usize % (3 << 20);
                        let mark = (t * 31 + round) as u8;
                        let p = large_pages(|| unsafe { a.alloc(layout(size)) });
                        assert!(!p.is_null());
                        unsafe {
                            *p = mark;
                            *p.add(size - 1) = mark;
                        }
                        held.push((p, size, mark));
                        if held.len() > 24 || round % 7 == 0 {
                            let at = (x >> 20) as usize % held.len();
                            let (p, size, mark) = held.swap_remove(at);
                            unsafe {
                                assert_eq!((*p, *p.add(size - 1)), (mark, mark));
                                a.dealloc(p, layout(size));
                            }
                        }
                    }
                    for (p, size, mark) in held {
                        unsafe {
                            assert_eq!((*p, *p.add(size - 1)), (mark, mark));
                            a.dealloc(p, layout(size));
                        }
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().expect("no thread failed");
        }
        let p = pages();
        assert!(p.kept.bytes <= KEPT && p.kept.count <= SLOTS);
    }

    #[test]
    fn the_scope_ends_with_its_closure_even_on_a_panic() {
        let caught = std::panic::catch_unwind(|| large_pages(|| panic!("inside")));
        assert!(caught.is_err());
        assert!(!INSIDE.with(|c| c.get()));
        assert!(large_pages(|| INSIDE.with(|c| c.get())));
        assert!(!INSIDE.with(|c| c.get()));
    }
}
