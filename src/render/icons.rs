//! The game-icons.net silhouettes (CC BY 3.0, assets/LICENSES.md), rasterised once per size.
//!
//! Parsing and rasterising ~30 SVGs takes far longer than drawing a whole board, so each size
//! is rasterised once per process into plain alpha masks and kept; the renderer then only
//! blends masks in whatever colour it needs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use resvg::{tiny_skia, usvg};

use super::canvas::Mask;

/// Every icon the renderer draws; the files are made by scripts/extract-icons.mjs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Icon {
    AirBalloon,
    Airplane,
    Barrel,
    Beard,
    BrandyBottle,
    Canoe,
    CannonBall,
    Cauldron,
    CaveEntrance,
    CrocJaws,
    EarthCrack,
    Galleon,
    GoldBar,
    HeartTower,
    HorseHead,
    Jungle,
    Lighthouse,
    Maze,
    OpenTreasureChest,
    ParrotHead,
    Prayer,
    SkullCrossedBones,
    Snowflake,
    StoneTower,
    TribalMask,
    TwoCoins,
    VineLeaf,
    Wheelbarrow,
    WolfTrap,
}

/// SVG sources in the order of [`Icon`].
const FILES: [&str; 29] = [
    include_str!("../../assets/icons/air-balloon.svg"),
    include_str!("../../assets/icons/airplane.svg"),
    include_str!("../../assets/icons/barrel.svg"),
    include_str!("../../assets/icons/beard.svg"),
    include_str!("../../assets/icons/brandy-bottle.svg"),
    include_str!("../../assets/icons/canoe.svg"),
    include_str!("../../assets/icons/cannon-ball.svg"),
    include_str!("../../assets/icons/cauldron.svg"),
    include_str!("../../assets/icons/cave-entrance.svg"),
    include_str!("../../assets/icons/croc-jaws.svg"),
    include_str!("../../assets/icons/earth-crack.svg"),
    include_str!("../../assets/icons/galleon.svg"),
    include_str!("../../assets/icons/gold-bar.svg"),
    include_str!("../../assets/icons/heart-tower.svg"),
    include_str!("../../assets/icons/horse-head.svg"),
    include_str!("../../assets/icons/jungle.svg"),
    include_str!("../../assets/icons/lighthouse.svg"),
    include_str!("../../assets/icons/maze.svg"),
    include_str!("../../assets/icons/open-treasure-chest.svg"),
    include_str!("../../assets/icons/parrot-head.svg"),
    include_str!("../../assets/icons/prayer.svg"),
    include_str!("../../assets/icons/skull-crossed-bones.svg"),
    include_str!("../../assets/icons/snowflake-1.svg"),
    include_str!("../../assets/icons/stone-tower.svg"),
    include_str!("../../assets/icons/tribal-mask.svg"),
    include_str!("../../assets/icons/two-coins.svg"),
    include_str!("../../assets/icons/vine-leaf.svg"),
    include_str!("../../assets/icons/wheelbarrow.svg"),
    include_str!("../../assets/icons/wolf-trap.svg"),
];

impl Icon {
    pub const ALL: [Icon; 29] = [
        Icon::AirBalloon,
        Icon::Airplane,
        Icon::Barrel,
        Icon::Beard,
        Icon::BrandyBottle,
        Icon::Canoe,
        Icon::CannonBall,
        Icon::Cauldron,
        Icon::CaveEntrance,
        Icon::CrocJaws,
        Icon::EarthCrack,
        Icon::Galleon,
        Icon::GoldBar,
        Icon::HeartTower,
        Icon::HorseHead,
        Icon::Jungle,
        Icon::Lighthouse,
        Icon::Maze,
        Icon::OpenTreasureChest,
        Icon::ParrotHead,
        Icon::Prayer,
        Icon::SkullCrossedBones,
        Icon::Snowflake,
        Icon::StoneTower,
        Icon::TribalMask,
        Icon::TwoCoins,
        Icon::VineLeaf,
        Icon::Wheelbarrow,
        Icon::WolfTrap,
    ];
}

/// All icons rasterised at one pixel size.
pub struct IconSet {
    masks: Vec<Mask>,
}

impl IconSet {
    pub fn get(&self, icon: Icon) -> &Mask {
        &self.masks[icon as usize]
    }
}

/// The icons at `px`×`px`, rasterised on first use and cached for the life of the process.
pub fn at(px: u32) -> Arc<IconSet> {
    static CACHE: OnceLock<Mutex<HashMap<u32, Arc<IconSet>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    // A poisoned lock only means another thread panicked while rasterising; the map itself
    // is still consistent (entries are inserted whole), so keep using it.
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(px)
        .or_insert_with(|| {
            Arc::new(IconSet {
                masks: FILES.iter().map(|svg| rasterise(svg, px)).collect(),
            })
        })
        .clone()
}

/// Renders one SVG into a square alpha mask. The files are compiled in and checked by a
/// test, so a parse failure here is a build defect; it yields an empty mask rather than a
/// panic in the bot.
fn rasterise(svg: &str, px: u32) -> Mask {
    let px = px.max(1);
    let empty = Mask {
        w: px,
        h: px,
        alpha: vec![0; (px * px) as usize],
    };
    let Ok(tree) = usvg::Tree::from_str(svg, &usvg::Options::default()) else {
        return empty;
    };
    let Some(mut pixmap) = tiny_skia::Pixmap::new(px, px) else {
        return empty;
    };
    // Fit the ink, not the 512×512 view box: the silhouettes have uneven padding, and a
    // wide trap next to a tall tower should both fill their cell.
    let ink = tree.root().abs_bounding_box();
    let (bw, bh) = (ink.width().max(1.0), ink.height().max(1.0));
    let scale = px as f32 / bw.max(bh);
    let dx = (px as f32 - bw * scale) / 2.0 - ink.x() * scale;
    let dy = (px as f32 - bh * scale) / 2.0 - ink.y() * scale;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_row(scale, 0.0, 0.0, scale, dx, dy),
        &mut pixmap.as_mut(),
    );
    Mask {
        w: px,
        h: px,
        alpha: pixmap.data().chunks_exact(4).map(|p| p[3]).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_icon_parses_and_has_ink() {
        for (svg, icon) in FILES.iter().zip(Icon::ALL) {
            assert!(
                usvg::Tree::from_str(svg, &usvg::Options::default()).is_ok(),
                "{icon:?}"
            );
            let set = at(48);
            let ink = set.get(icon).alpha.iter().filter(|a| **a > 128).count();
            assert!(ink > 48 * 48 / 20, "{icon:?} has too little ink: {ink}");
        }
    }

    #[test]
    fn sets_are_cached() {
        assert!(Arc::ptr_eq(&at(40), &at(40)));
    }
}
