//! What every drawing function needs: the layout, the language and the icon masks at the
//! sizes this layout uses.

use std::sync::Arc;

use super::icons::{self, IconSet};
use super::layout::Layout;
use super::strings::Lang;
use crate::engine::Board;

/// Icon size in the header, the same for every board size.
pub const HEADER_ICON: u32 = 28;

pub struct Kit {
    pub layout: Layout,
    pub lang: Lang,
    /// Tile symbols and vessel silhouettes, a bit over half a cell.
    pub tile: Arc<IconSet>,
    /// Item and state badges, about a quarter of a cell.
    pub badge: Arc<IconSet>,
    pub header: Arc<IconSet>,
}

impl Kit {
    pub fn new(board: Board, lang: Lang) -> Kit {
        let layout = Layout::new(board);
        let cell = layout.cell as f32;
        Kit {
            layout,
            lang,
            tile: icons::at((cell * 0.56).round() as u32),
            badge: icons::at((cell * 0.24).round().clamp(14.0, 30.0) as u32),
            header: icons::at(HEADER_ICON),
        }
    }

    pub fn cell(&self) -> f32 {
        self.layout.cell as f32
    }
}
