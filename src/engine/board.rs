//! Board geometry (RULES §1): cells, directions, the sea ring, ship slots.
//!
//! Everything here is a pure function of the board side N; a [`Board`] is a small `Copy` value
//! that answers geometric questions, so the rest of the engine never does coordinate arithmetic
//! by hand.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A cell of the board: zero-based column (a = 0) and row (1 = 0). Whether it exists depends
/// on the board, so cells are only created through [`Board`] or checked with [`Board::exists`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Deserialize)]
#[serde(try_from = "CellRead")]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

/// A cell as read, before its bounds are checked: no board has a cell beyond `m13`, and one
/// read from an import or a damaged row must not reach code that names or indexes it (`col`
/// 255 would overflow its letter).
#[derive(Deserialize)]
struct CellRead {
    col: u8,
    row: u8,
}

impl TryFrom<CellRead> for Cell {
    type Error = String;

    fn try_from(c: CellRead) -> Result<Cell, String> {
        let side = Board::SIZES[Board::SIZES.len() - 1];
        if c.col < side && c.row < side {
            Ok(Cell::new(c.col, c.row))
        } else {
            Err(format!("cell [{}, {}] is on no board", c.col, c.row))
        }
    }
}

/// Written as `[col, row]`: cells fill the stored actions, events and states. The derived
/// reader takes that and the `{"col": …, "row": …}` object written before.
impl Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (self.col, self.row).serialize(s)
    }
}

impl Cell {
    pub const fn new(col: u8, row: u8) -> Cell {
        Cell { col, row }
    }

    /// The cell `dx` columns east and `dy` rows north, if the coordinates stay non-negative.
    pub fn offset(self, dx: i8, dy: i8) -> Option<Cell> {
        let col = self.col as i16 + dx as i16;
        let row = self.row as i16 + dy as i16;
        if (0..=u8::MAX as i16).contains(&col) && (0..=u8::MAX as i16).contains(&row) {
            Some(Cell::new(col as u8, row as u8))
        } else {
            None
        }
    }

    pub fn step(self, dir: Dir) -> Option<Cell> {
        let (dx, dy) = dir.delta();
        self.offset(dx, dy)
    }

    /// Parses `g7`-style names without checking that the cell exists on any board.
    pub fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        Some(Cell::new(letter as u8 - b'a', row - 1))
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

impl fmt::Debug for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The eight directions of R-BOARD-2, clockwise from north.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize, PartialOrd, Ord)]
pub enum Dir {
    N,
    Ne,
    E,
    Se,
    S,
    Sw,
    W,
    Nw,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::Ne,
        Dir::E,
        Dir::Se,
        Dir::S,
        Dir::Sw,
        Dir::W,
        Dir::Nw,
    ];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_index(i: usize) -> Dir {
        Dir::ALL[i % 8]
    }

    /// Columns east and rows north of one step (a table lookup: asked for every neighbour).
    #[inline]
    pub fn delta(self) -> (i8, i8) {
        const DELTAS: [(i8, i8); 8] = [
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
            (-1, 1),
        ];
        DELTAS[self as usize]
    }

    pub fn from_delta(dx: i8, dy: i8) -> Option<Dir> {
        match (dx, dy) {
            (0, 1) => Some(Dir::N),
            (1, 1) => Some(Dir::Ne),
            (1, 0) => Some(Dir::E),
            (1, -1) => Some(Dir::Se),
            (0, -1) => Some(Dir::S),
            (-1, -1) => Some(Dir::Sw),
            (-1, 0) => Some(Dir::W),
            (-1, 1) => Some(Dir::Nw),
            _ => None,
        }
    }

    /// Turned clockwise by `quarters` quarter turns (R-PACK-4).
    pub fn rotated(self, quarters: u8) -> Dir {
        Dir::from_index(self.index() + 2 * quarters as usize)
    }

    pub fn opposite(self) -> Dir {
        Dir::from_index(self.index() + 4)
    }

    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "n",
            Dir::Ne => "ne",
            Dir::E => "e",
            Dir::Se => "se",
            Dir::S => "s",
            Dir::Sw => "sw",
            Dir::W => "w",
            Dir::Nw => "nw",
        }
    }

    pub fn parse(text: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == text)
    }
}

/// A set of directions as a bit mask (bit i = `Dir::from_index(i)`); arrows are such sets.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct DirSet(pub u8);

impl DirSet {
    pub fn of(dirs: &[Dir]) -> DirSet {
        DirSet(dirs.iter().fold(0, |m, d| m | 1 << d.index()))
    }

    pub fn contains(self, d: Dir) -> bool {
        self.0 & (1 << d.index()) != 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Dir> {
        Dir::ALL.into_iter().filter(move |d| self.contains(*d))
    }

    pub fn rotated(self, quarters: u8) -> DirSet {
        DirSet(self.0.rotate_left(2 * (quarters as u32 % 4)))
    }
}

impl fmt::Display for DirSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(Dir::name).collect();
        f.write_str(&names.join("+"))
    }
}

/// The existing neighbours of a cell, in direction order ([`Board::neighbours`]). A plain
/// iterator rather than a chain of closures: it runs for every unit on every ply, and small
/// enough to be inlined wherever it is used.
pub struct Neighbours {
    board: Board,
    from: Cell,
    inner: bool,
    next: u8,
}

impl Iterator for Neighbours {
    type Item = Cell;

    #[inline]
    fn next(&mut self) -> Option<Cell> {
        while (self.next as usize) < Dir::ALL.len() {
            let d = Dir::ALL[self.next as usize];
            self.next += 1;
            if self.inner {
                let (dx, dy) = d.delta();
                return Some(Cell::new(
                    self.from.col.wrapping_add(dx as u8),
                    self.from.row.wrapping_add(dy as u8),
                ));
            }
            if let Some(t) = self.board.step(self.from, d) {
                return Some(t);
            }
        }
        None
    }
}

/// The sides of the board (R-BOARD-8), which are also where teams' ships start (R-SEAT-1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Side {
    South,
    West,
    North,
    East,
}

/// The board of side N (R-BOARD-1): answers every geometric question.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Board {
    n: u8,
}

pub const KNIGHT_JUMPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Bits of a cell's class: it exists on the board (R-BOARD-3); it is land (R-BOARD-5).
const EXISTS: u8 = 1;
const LAND: u8 = 2;

/// The class of every cell `(col, row)` at `row * 16 + col`, for each board side. Sides and
/// coordinates beyond 15 are clamped to 15, which is on no board (a side read from a damaged
/// state included): they read as nothing.
static CLASSES: [[u8; 256]; 16] = {
    let mut t = [[0u8; 256]; 16];
    let mut n = 5;
    while n <= 13 {
        t[n] = classify(n as u8);
        n += 2;
    }
    t
};

/// R-BOARD-3 and R-BOARD-5 for the board of side `n`.
const fn classify(n: u8) -> [u8; 256] {
    let last = n - 1;
    let mut t = [0u8; 256];
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let edge_col = col == 0 || col == last;
            let edge_row = row == 0 || row == last;
            let exists = !(edge_col && edge_row);
            let ring = col == 0 || row == 0 || col == last || row == last;
            let island_corner = (col == 1 || col == last - 1) && (row == 1 || row == last - 1);
            let mut class = 0;
            if exists {
                class |= EXISTS;
                if !ring && !island_corner {
                    class |= LAND;
                }
            }
            t[(row as usize) << 4 | col as usize] = class;
            col += 1;
        }
        row += 1;
    }
    t
}

impl Board {
    pub const SIZES: [u8; 5] = [5, 7, 9, 11, 13];

    pub fn new(n: u8) -> Option<Board> {
        Board::SIZES.contains(&n).then_some(Board { n })
    }

    pub fn size(self) -> u8 {
        self.n
    }

    pub fn cell_count(self) -> usize {
        self.n as usize * self.n as usize
    }

    /// Dense index of a cell for per-cell tables (row-major, so it follows R-BOARD-9).
    #[inline]
    pub fn index(self, c: Cell) -> usize {
        c.row as usize * self.n as usize + c.col as usize
    }

    pub fn cell_at(self, index: usize) -> Cell {
        Cell::new(
            (index % self.n as usize) as u8,
            (index / self.n as usize) as u8,
        )
    }

    fn last(self) -> u8 {
        self.n - 1
    }

    /// R-BOARD-3: inside the square and not one of the four outer corners.
    #[inline]
    pub fn exists(self, c: Cell) -> bool {
        self.class(c) & EXISTS != 0
    }

    /// What `c` is on this board, from the table built by [`classify`]: asked for nearly every
    /// cell the move generator and the chain look at.
    #[inline]
    fn class(self, c: Cell) -> u8 {
        // Clamped and masked indices: no branch and no bounds check on this hot path.
        let row = c.row.min(15) as usize;
        let col = c.col.min(15) as usize;
        CLASSES[self.n.min(15) as usize][row << 4 | col]
    }

    /// All existing cells in canonical order (R-BOARD-9).
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (0..self.cell_count())
            .map(move |i| self.cell_at(i))
            .filter(move |c| self.exists(*c))
    }

    /// R-BOARD-5: a land cell holds a tile.
    #[inline]
    pub fn is_land(self, c: Cell) -> bool {
        self.class(c) & LAND != 0
    }

    #[inline]
    pub fn is_sea(self, c: Cell) -> bool {
        self.class(c) == EXISTS
    }

    /// Land cells in canonical order: the rows and columns inside the sea ring, less the four
    /// island corners (R-BOARD-5), without a look at any other cell.
    pub fn land_cells(self) -> impl Iterator<Item = Cell> {
        let last = self.last();
        (1..last)
            .flat_map(move |row| (1..last).map(move |col| Cell::new(col, row)))
            .filter(move |c| {
                let edge_col = c.col == 1 || c.col == last - 1;
                let edge_row = c.row == 1 || c.row == last - 1;
                !(edge_col && edge_row)
            })
    }

    pub fn land_count(self) -> usize {
        let inner = self.n as usize - 2;
        inner * inner - 4
    }

    #[inline]
    pub fn step(self, c: Cell, d: Dir) -> Option<Cell> {
        if c.col >= 16 || c.row >= 16 {
            return c.step(d).filter(|t| self.exists(*t));
        }
        self.step_near(c, d)
    }

    /// [`Board::step`] from a cell inside the 16×16 square that holds every board (all
    /// existing cells): past the low edge a coordinate wraps to 255, and the high edge stays
    /// within 16, so one class lookup says whether the cell exists, with no range checks.
    #[inline]
    fn step_near(self, c: Cell, d: Dir) -> Option<Cell> {
        let (dx, dy) = d.delta();
        let t = Cell::new(c.col.wrapping_add(dx as u8), c.row.wrapping_add(dy as u8));
        self.exists(t).then_some(t)
    }

    pub fn jump(self, c: Cell, v: (i8, i8)) -> Option<Cell> {
        c.offset(v.0, v.1).filter(|t| self.exists(*t))
    }

    /// Existing neighbours (R-BOARD-7), in direction order.
    pub fn neighbours(self, c: Cell) -> Neighbours {
        Neighbours {
            board: self,
            from: c,
            // Around a land cell every neighbour exists: no checks for the common case. (The
            // island corners are inside the ring too, but touch the missing outer corners.)
            inner: self.is_land(c),
            next: 0,
        }
    }

    pub fn adjacent(self, a: Cell, b: Cell) -> bool {
        a != b
            && (a.col as i16 - b.col as i16).abs() <= 1
            && (a.row as i16 - b.row as i16).abs() <= 1
    }

    /// Direction from `a` to an adjacent `b`.
    pub fn dir_between(a: Cell, b: Cell) -> Option<Dir> {
        Dir::from_delta(b.col as i8 - a.col as i8, b.row as i8 - a.row as i8)
    }

    /// The side whose ship slots contain `c`, if `c` is a slot (R-BOARD-8).
    #[inline]
    pub fn slot_side(self, c: Cell) -> Option<Side> {
        let last = self.last();
        let in_range = |v: u8| (2..=last - 2).contains(&v);
        if c.row == 0 && in_range(c.col) {
            Some(Side::South)
        } else if c.row == last && in_range(c.col) {
            Some(Side::North)
        } else if c.col == 0 && in_range(c.row) {
            Some(Side::West)
        } else if c.col == last && in_range(c.row) {
            Some(Side::East)
        } else {
            None
        }
    }

    pub fn is_slot_of(self, c: Cell, side: Side) -> bool {
        self.exists(c) && self.slot_side(c) == Some(side)
    }

    /// The land cell in front of a ship slot (R-BOARD-8).
    #[inline]
    pub fn front_cell(self, slot: Cell) -> Option<Cell> {
        let dir = match self.slot_side(slot)? {
            Side::South => Dir::N,
            Side::North => Dir::S,
            Side::West => Dir::E,
            Side::East => Dir::W,
        };
        self.step(slot, dir)
    }

    pub fn middle_slot(self, side: Side) -> Cell {
        let mid = self.n / 2;
        let last = self.last();
        match side {
            Side::South => Cell::new(mid, 0),
            Side::North => Cell::new(mid, last),
            Side::West => Cell::new(0, mid),
            Side::East => Cell::new(last, mid),
        }
    }

    /// R-RETREAT-2 distance between two cells under a metric.
    pub fn distance(a: Cell, b: Cell, metric: crate::engine::settings::RetreatDistance) -> u32 {
        use crate::engine::settings::RetreatDistance::*;
        let dx = (a.col as i32 - b.col as i32).unsigned_abs();
        let dy = (a.row as i32 - b.row as i32).unsigned_abs();
        match metric {
            King => dx.max(dy),
            Taxicab => dx + dy,
            Euclid => dx * dx + dy * dy,
        }
    }

    /// R-BALL-2: the cells after `from` in direction `d`, up to and including the first sea
    /// cell (from a land cell a straight line always meets the sea).
    pub fn line_of_fire(self, from: Cell, d: Dir) -> Vec<Cell> {
        let mut out = Vec::new();
        let mut c = from;
        while let Some(next) = self.step(c, d) {
            out.push(next);
            if self.is_sea(next) {
                break;
            }
            c = next;
        }
        out
    }

    /// R-CANNON-1: where a unit shot from `from` along `d` lands: the first sea cell.
    pub fn first_sea(self, from: Cell, d: Dir) -> Cell {
        let mut c = from;
        while let Some(next) = self.step(c, d) {
            if self.is_sea(next) {
                return next;
            }
            c = next;
        }
        panic!("a straight line from land meets the sea")
    }

    /// Parses a cell name and checks that it exists on this board.
    pub fn parse_cell(self, text: &str) -> Option<Cell> {
        Cell::parse(text).filter(|c| self.exists(*c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_r_board_6() {
        for (n, land, mid) in [
            (13u8, 117usize, ["g1", "a7", "g13", "m7"]),
            (11, 77, ["f1", "a6", "f11", "k6"]),
            (9, 45, ["e1", "a5", "e9", "i5"]),
            (7, 21, ["d1", "a4", "d7", "g4"]),
            (5, 5, ["c1", "a3", "c5", "e3"]),
        ] {
            let b = Board::new(n).unwrap();
            assert_eq!(b.land_cells().count(), land);
            let by_class: Vec<Cell> = b.cells().filter(|c| b.is_land(*c)).collect();
            assert_eq!(b.land_cells().collect::<Vec<_>>(), by_class);
            assert_eq!(b.land_count(), land);
            let sides = [Side::South, Side::West, Side::North, Side::East];
            for (side, name) in sides.into_iter().zip(mid) {
                assert_eq!(b.middle_slot(side).to_string(), name);
            }
        }
    }

    #[test]
    fn corners_and_island_corners() {
        let b = Board::new(13).unwrap();
        for name in ["a1", "a13", "m1", "m13"] {
            assert!(!b.exists(Cell::parse(name).unwrap()));
        }
        for name in ["b2", "l2", "b12", "l12"] {
            assert!(b.is_sea(Cell::parse(name).unwrap()));
        }
        assert_eq!(
            b.front_cell(Cell::parse("m7").unwrap())
                .unwrap()
                .to_string(),
            "l7"
        );
    }

    #[test]
    fn neighbours_exist_and_are_adjacent() {
        for n in Board::SIZES {
            let b = Board::new(n).unwrap();
            for c in b.cells() {
                let slow: Vec<Cell> = Dir::ALL.into_iter().filter_map(|d| b.step(c, d)).collect();
                let fast: Vec<Cell> = b.neighbours(c).collect();
                assert_eq!(fast, slow, "{c} on {n}");
            }
        }
    }

    /// The class table says what the rules' definitions say (R-BOARD-3, R-BOARD-5), on every
    /// board and beyond its edges.
    #[test]
    fn cell_classes_follow_the_definitions() {
        for n in Board::SIZES {
            let b = Board::new(n).unwrap();
            let last = n - 1;
            for col in 0..20u8 {
                for row in 0..20u8 {
                    let c = Cell::new(col, row);
                    let inside = col <= last && row <= last;
                    let corner = (col == 0 || col == last) && (row == 0 || row == last);
                    let exists = inside && !corner;
                    let ring = col == 0 || row == 0 || col == last || row == last;
                    let island_corner =
                        (col == 1 || col == last - 1) && (row == 1 || row == last - 1);
                    let land = exists && !ring && !island_corner;
                    assert_eq!(b.exists(c), exists, "{c} on {n}");
                    assert_eq!(b.is_land(c), land, "{c} on {n}");
                    assert_eq!(b.is_sea(c), exists && !land, "{c} on {n}");
                }
            }
        }
    }

    #[test]
    fn from_delta_inverts_delta() {
        for d in Dir::ALL {
            let (dx, dy) = d.delta();
            assert_eq!(Dir::from_delta(dx, dy), Some(d));
        }
        assert_eq!(Dir::from_delta(0, 0), None);
        assert_eq!(Dir::from_delta(2, 1), None);
    }

    #[test]
    fn rotation_is_clockwise() {
        assert_eq!(Dir::N.rotated(1), Dir::E);
        assert_eq!(Dir::Ne.rotated(1), Dir::Se);
        assert_eq!(DirSet::of(&[Dir::N]).rotated(3), DirSet::of(&[Dir::W]));
    }
}
