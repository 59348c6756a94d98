//! Where things go on the 1024×1024 picture: header, coordinate bands, cells.

use crate::engine::{Board, Cell};

/// The picture is square and always this size (DESIGN §6): Discord shows it whole on a phone.
pub const SIZE: u32 = 1024;
/// The header band with scores, rum and whose turn it is.
pub const HEADER_H: u32 = 56;
/// The bands with column letters (above and below) and row numbers (left and right).
pub const BAND: u32 = 26;

/// A rectangle in pixels.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rect {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Rect {
    pub fn new(x: f32, y: f32, w: f32, h: f32) -> Rect {
        Rect { x, y, w, h }
    }

    pub fn centre(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// The rectangle shrunk by `d` on every side.
    pub fn inset(&self, d: f32) -> Rect {
        Rect::new(self.x + d, self.y + d, self.w - 2.0 * d, self.h - 2.0 * d)
    }
}

/// The geometry of one picture for a board of side N.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub board: Board,
    /// Cell side in whole pixels, so cell edges fall on pixel edges and stay crisp.
    pub cell: u32,
    /// Top-left corner of the board (cell a-N).
    pub x0: u32,
    pub y0: u32,
}

impl Layout {
    pub fn new(board: Board) -> Layout {
        let n = board.size() as u32;
        let cell = ((SIZE - HEADER_H - 2 * BAND - 4) / n).min((SIZE - 2 * BAND - 4) / n);
        let side = cell * n;
        let x0 = (SIZE - side) / 2;
        // Centre the board and its two letter bands in the space under the header.
        let y0 = HEADER_H + (SIZE - HEADER_H - side) / 2;
        Layout {
            board,
            cell,
            x0,
            y0,
        }
    }

    pub fn n(&self) -> u32 {
        self.board.size() as u32
    }

    pub fn side(&self) -> u32 {
        self.cell * self.n()
    }

    /// The pixel square of a cell: row 1 at the bottom, column a on the left (R-BOARD-2).
    pub fn cell_rect(&self, c: Cell) -> Rect {
        let n = self.n();
        let x = self.x0 + c.col as u32 * self.cell;
        let y = self.y0 + (n - 1 - c.row as u32) * self.cell;
        Rect::new(x as f32, y as f32, self.cell as f32, self.cell as f32)
    }

    pub fn cell_centre(&self, c: Cell) -> (f32, f32) {
        self.cell_rect(c).centre()
    }

    /// The whole board square.
    pub fn board_rect(&self) -> Rect {
        let s = self.side() as f32;
        Rect::new(self.x0 as f32, self.y0 as f32, s, s)
    }

    /// Font size of the coordinates and of the faint names in fog.
    pub fn coordinate_px(&self) -> f32 {
        (self.cell as f32 * 0.34).clamp(16.0, 22.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_board_fits_with_its_bands() {
        for n in Board::SIZES {
            let l = Layout::new(Board::new(n).unwrap());
            assert!(l.y0 >= HEADER_H + BAND, "n={n}");
            assert!(l.y0 + l.side() + BAND <= SIZE, "n={n}");
            assert!(l.x0 >= BAND, "n={n}");
        }
        assert_eq!(Layout::new(Board::new(13).unwrap()).cell, 70);
    }

    #[test]
    fn row_one_is_at_the_bottom() {
        let l = Layout::new(Board::new(13).unwrap());
        let a1 = l.cell_rect(Cell::new(0, 0));
        let a13 = l.cell_rect(Cell::new(0, 12));
        assert!(a1.y > a13.y);
        assert_eq!(a13.y, l.y0 as f32);
    }
}
