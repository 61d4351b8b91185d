//! Work split over a few threads where items are many and independent (mail files read
//! and written, mails parsed and formatted): the judge's own order of effects is kept,
//! only the independent parts run side by side.

/// At most this many threads share a batch.
const MAX_THREADS: usize = 4;
/// Fewer items than this are done on the calling thread.
const MIN_ITEMS: usize = 32;

/// How many threads for `n` items (1: the calling thread alone).
fn threads(n: usize) -> usize {
    if n < MIN_ITEMS {
        return 1;
    }
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(MAX_THREADS)
        .min(n / (MIN_ITEMS / 2))
}

/// `f` over owned `items`, results in the items' order.
pub fn map_owned<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let threads = threads(items.len());
    if threads < 2 {
        return items.into_iter().map(f).collect();
    }
    let per = items.len().div_ceil(threads);
    let mut parts: Vec<Vec<T>> = Vec::with_capacity(threads);
    let mut items = items.into_iter();
    loop {
        let part: Vec<T> = items.by_ref().take(per).collect();
        if part.is_empty() {
            break;
        }
        parts.push(part);
    }
    let f = &f;
    std::thread::scope(|s| {
        let mut parts = parts.into_iter();
        let first = parts.next().unwrap_or_default();
        let others: Vec<_> = parts
            .map(|part| s.spawn(move || part.into_iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out: Vec<R> = first.into_iter().map(f).collect();
        for other in others {
            match other.join() {
                Ok(part) => out.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

/// `f` over `items`, results in the items' order.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = threads(items.len());
    if threads < 2 {
        return items.iter().map(f).collect();
    }
    let per = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|s| {
        let mut chunks = items.chunks(per);
        let first = chunks.next().unwrap_or_default();
        let others: Vec<_> = chunks
            .map(|chunk| s.spawn(move || chunk.iter().map(f).collect::<Vec<R>>()))
            .collect();
        let mut out: Vec<R> = first.iter().map(f).collect();
        for other in others {
            match other.join() {
                Ok(part) => out.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        out
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_order_of_the_items() {
        for n in [0, 1, 31, 32, 33, 100, 1001] {
            let items: Vec<usize> = (0..n).collect();
            let out = super::map(&items, |k| k * 2);
            assert_eq!(out, items.iter().map(|k| k * 2).collect::<Vec<_>>(), "{n}");
            let owned = super::map_owned(items.clone(), |k| k * 2);
            assert_eq!(owned, out, "{n}");
        }
    }
}
