//! One map over a slice shared out over the cores: the slice cut into as
//! many contiguous parts as there are cores (at most eight), each mapped on
//! a scoped thread, the results joined back in order. For work that is many
//! independent pieces of about the same size (a site's pages, each cell's
//! change points); a single core maps in place.

/// `f` over `items`, in their order, on up to eight threads.
pub fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads == 1 || items.len() < 2 {
        return items.iter().map(f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        // A part whose thread cannot start (the system gives no more
        // processes, as under a pids limit) is mapped here, in turn.
        let parts: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || part.iter().map(f).collect::<Vec<R>>())
                    .map_err(|_| part)
            })
            .collect();
        parts
            .into_iter()
            .flat_map(|p| match p {
                Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                Err(part) => part.iter().map(f).collect(),
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_results_come_back_in_the_items_order() {
        let items: Vec<u64> = (0..1001).collect();
        assert_eq!(
            super::map(&items, |x| x * 2),
            items.iter().map(|x| x * 2).collect::<Vec<_>>()
        );
        assert!(super::map(&[] as &[u64], |x| *x).is_empty());
    }
}
