use jackal::engine::{Game, Pack, Players, Settings};
struct R(u64);
impl R { fn next(&mut self)->u64{ self.0=self.0.wrapping_add(0x9E3779B97F4A7C15); let mut z=self.0; z=(z^(z>>30)).wrapping_mul(0xBF58476D1CE4E5B9); z=(z^(z>>27)).wrapping_mul(0x94D049BB133111EB); z^(z>>31)} }
#[test]
fn search() {
    let mut best: Option<(usize, u64, u8, Players, Vec<String>)> = None;
    let mut r = R(1);
    let mut fails = 0;
    for _ in 0..20000 {
        let size = [5u8,5,5,7][(r.next()%4) as usize];
        let players = [Players::Two, Players::Three, Players::Four, Players::TwoVsTwo][(r.next()%4) as usize];
        let seed = r.next() % 1000000;
        let s = Settings { board_size: size, players, tile_pack: Pack::Classic, ..Settings::default() };
        let mut g = Game::new(s, seed).unwrap();
        let mut hist = vec![];
        let mut pr = R(r.next());
        while !g.is_over() && hist.len() < 20000 {
            let la = g.legal_actions();
            let a = la[(pr.next() % la.len() as u64) as usize].action;
            hist.push(g.notation(&a));
            g.play(&a).unwrap();
            let (d, del, l) = g.gold_accounts();
            if g.gold_in_play() + del + l != d {
                fails += 1;
                if best.as_ref().map_or(true, |b| hist.len() < b.0) { best = Some((hist.len(), seed, size, players, hist.clone())); }
                break;
            }
        }
    }
    println!("fails {fails}; best {:?}", best);
}
