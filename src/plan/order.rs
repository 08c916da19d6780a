//! The order a group's implementations take their runs in, round by round.
//!
//! Taking turns (A B C, B C A, C A B) cancels a machine that drifts: every
//! implementation runs at every place in a round equally often. It cannot
//! cancel a run that leaves the machine slower for the *next* one (memory
//! the kernel must reclaim or the host must hand back, a cache evicted, a
//! hot CPU): in that rotation B always runs right after A, so A's aftermath
//! is charged to B, and nothing in the data can tell, since no
//! implementation ever runs after itself.
//!
//! The `balanced` order is a carry-over balanced (crossover) design: over
//! each block of rounds, every implementation runs right after every
//! implementation, itself included, equally often, so each has an "after
//! itself" estimate (what it costs run alone, as hyperfine measures it) and
//! an "after each other" estimate (`judge::carryover`). Each round still
//! holds one run of each implementation, so run i of two cells stays a pair
//! taken side by side (`judge::compare::paired_runs`).
//!
//! Construction. With rounds that are permutations, an implementation can
//! only follow itself across a round's edge, so in a balanced sequence every
//! round must begin with the implementation that ended the round before (the
//! repeated run is the "after itself" run), and the rounds' inner steps must
//! hold every ordered pair of two different implementations equally often:
//! a decomposition of the complete directed graph into Hamiltonian paths
//! chained end to start. Williams (1949) gives the paths: the rows of his
//! square, `b + s (mod k)` with the base row `b = 0, 1, k−1, 2, k−2, …`,
//! hold every ordered pair once for even k; for odd k the rows and their
//! mirror images hold every pair twice. Each row ends `e = b[k−1]` further
//! on than it starts. For odd k, e = (k+1)/2 is prime to k, so the rows
//! chain into one cycle (`s → s + e`), and so do the mirrored rows: the
//! block is one cycle then the other, 2k rounds. For even k, e = k/2 pairs
//! the rows into 2-cycles that cannot be chained (k = 4 admits no chained
//! single square at all, by exhaustive search), so a second square, the
//! first relabelled by `φ(i) = (i+1) mod k/2` below k/2 and `φ(i) = i` from
//! it, joins the pairs: the rows of both squares, as arcs start → end, form
//! one cycle walked forth and back, 2k rounds. Either way, in a block of 2k
//! rounds every implementation runs after each implementation (itself
//! included) exactly twice, and takes each place in a round exactly twice.
//! With two implementations the rotation already is balanced (A B, B A).

use crate::base::order::Order;

/// The order of round `round` (0-based, counted from the visit's first
/// warm-up round) over `k` cells: indices into the group's cells, each once.
/// `Blocked` has no rounds of several cells; it gives the identity.
pub(crate) fn round(order: Order, k: usize, round: usize) -> Vec<usize> {
    match order {
        Order::Interleaved => (0..k).map(|i| (i + round) % k).collect(),
        Order::Balanced => {
            let block = balanced_block(k);
            block[round % block.len()].clone()
        }
        Order::Blocked => (0..k).collect(),
    }
}

/// The Williams base row over `k`: 0, 1, k−1, 2, k−2, …
fn base_row(k: usize) -> Vec<usize> {
    (0..k)
        .map(|i| match i {
            0 => 0,
            i if i % 2 == 1 => i.div_ceil(2),
            i => k - i / 2,
        })
        .collect()
}

/// One block of the balanced order over `k` cells (see the module header):
/// 2k rounds for k ≥ 3, chained so that each round starts with the cell that
/// ended the one before, the last round leading back into the first.
pub(super) fn balanced_block(k: usize) -> Vec<Vec<usize>> {
    match k {
        0 => vec![vec![]],
        1 => vec![vec![0]],
        2 => vec![vec![0, 1], vec![1, 0]],
        _ if k % 2 == 1 => odd_block(k),
        _ => even_block(k),
    }
}

/// Row `s` of the square with base row `b`: `b + s (mod k)`.
fn shifted(b: &[usize], s: usize, k: usize) -> Vec<usize> {
    b.iter().map(|x| (x + s) % k).collect()
}

fn odd_block(k: usize) -> Vec<Vec<usize>> {
    let b = base_row(k);
    let e = b[k - 1];
    let mirrored: Vec<usize> = b.iter().rev().copied().collect();
    // Rows b + s from s = 0 along s → s + e, ending at 0; then the mirrored
    // rows, which run from s + e to s, from the one that starts at 0.
    let mut out: Vec<Vec<usize>> = (0..k).map(|m| shifted(&b, m * e % k, k)).collect();
    out.extend((1..=k).map(|m| shifted(&mirrored, (k * k - m * e) % k, k)));
    out
}

fn even_block(k: usize) -> Vec<Vec<usize>> {
    let h = k / 2;
    let b = base_row(k);
    let phi = |i: usize| if i < h { (i + 1) % h } else { i };
    let first = |s: usize| shifted(&b, s, k);
    let second = |s: usize| first(s).into_iter().map(phi).collect::<Vec<usize>>();
    let mut out = Vec::with_capacity(2 * k);
    // Forth: 0 → h → 1 → h+1 → … → k−1 → 0, first-square rows from i,
    // second-square rows from h + i.
    for i in 0..h {
        out.push(first(i));
        out.push(second(h + i));
    }
    // Back: 0 → k−1 → h−1 → k−2 → … → h → 0, the other rows of each square.
    for i in (0..h).rev() {
        out.push(second(i));
        out.push(first(h + i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How often each cell runs right after each cell (itself included) in
    /// the block repeated end to start, and how often it takes each place.
    fn counts(block: &[Vec<usize>], k: usize) -> (Vec<Vec<usize>>, Vec<Vec<usize>>) {
        let seq: Vec<usize> = block.iter().flatten().copied().collect();
        let mut follows = vec![vec![0; k]; k];
        for (i, x) in seq.iter().enumerate() {
            let prev = seq[(i + seq.len() - 1) % seq.len()];
            follows[prev][*x] += 1;
        }
        let mut places = vec![vec![0; k]; k];
        for row in block {
            for (place, x) in row.iter().enumerate() {
                places[*x][place] += 1;
            }
        }
        (follows, places)
    }

    #[test]
    fn every_cell_follows_every_cell_itself_included_equally_often() {
        for k in 2..=12 {
            let block = balanced_block(k);
            for row in &block {
                let mut sorted = row.clone();
                sorted.sort_unstable();
                assert_eq!(
                    sorted,
                    (0..k).collect::<Vec<_>>(),
                    "k={k}: a round holds each cell once"
                );
            }
            let (follows, places) = counts(&block, k);
            let times = block.len() / k;
            assert!(follows.iter().flatten().all(|n| *n == times), "k={k}: {follows:?}");
            assert!(places.iter().flatten().all(|n| *n == times), "k={k}: {places:?}");
            for (r, row) in block.iter().enumerate() {
                let next = &block[(r + 1) % block.len()];
                assert_eq!(row[k - 1], next[0], "k={k}: round {r} hands over to itself");
            }
        }
    }

    #[test]
    fn the_rotation_never_lets_a_cell_follow_itself_from_three_on() {
        let rotation: Vec<Vec<usize>> = (0..3).map(|r| round(Order::Interleaved, 3, r)).collect();
        let (follows, _) = counts(&rotation, 3);
        assert!((0..3).all(|i| follows[i][i] == 0), "{follows:?}");
        // Within the rounds B always runs right after A, never A after B:
        // A's aftermath is B's (only the block's edge turns it round).
        assert_eq!((follows[0][1], follows[1][0]), (2, 1));
        // Two cells: the rotation is already balanced.
        assert_eq!(
            balanced_block(2),
            [round(Order::Interleaved, 2, 0), round(Order::Interleaved, 2, 1)]
        );
    }

    #[test]
    fn rounds_repeat_the_block() {
        let block = balanced_block(4);
        assert_eq!(block.len(), 8);
        assert_eq!(round(Order::Balanced, 4, 9), block[1]);
        assert_eq!(round(Order::Blocked, 3, 5), [0, 1, 2]);
    }
}
