//! The presenter view's two windows (`?present=notes`, `?present=audience`), kept in step over a
//! `BroadcastChannel` (same origin, no server). Each window posts the shared state — its link's
//! query without the view keys (`url::to_query`), the playhead, play/pause and the tour step's
//! reveal — when it changes here, and applies what the other window posts. No echo: every message
//! carries its window's id (a window ignores its own), and a window keeps the last state it sent
//! or received and posts only a different one, so a state that came from a message is not posted
//! back. The presenter's window owns the playback clock: while it plays, the audience's clock
//! follows its playhead (`playback::follow_until`) and takes over only when the presenter's
//! frames stop (its window closed or hidden). A window that joins says hello and the presenter's
//! answers with its state; the audience's posts nothing before it has heard from the presenter.
//! `open` turns this window into the presenter's and opens the audience's.
//! Within one frame: a message posted on the channel reaches the other window as a task, through
//! the browser's process, and a same-origin window opened from this one shares this one's event
//! loop, so it runs only after this window's own work (the runs recomputed and drawn) and often
//! after this window's next frame. So each window also hands its message straight to the window
//! it opened or was opened by (`window.opener`, `__rsAudience`), through the function the other
//! window's `start` leaves on its `window` (`__rsPresent`): the other window applies it in this
//! task and draws before either window paints. The channel still carries it to windows opened by
//! hand (no opener), and the copy that arrives later changes nothing (same stamps).
//! Called by `app.rs` (`start`) and `keys.rs` (`open`, also the header's button).

use crate::ui::Ui;
use crate::url::{Role, UrlState};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// After the presenter's last frame, how long (ms) the audience's own clock waits before it
/// moves the playhead itself.
const FOLLOW_MS: f64 = 500.0;

/// What the windows share: the query (settings, tour step, zoom, speed, theme), the playhead
/// (ms), playing, revealed.
type Shared = (String, i64, bool, bool);

use crate::env::now_ms as now;

/// The shared state on screen (tracked in an effect). The settings as edited, not the last valid
/// ones: a message sets them, and the state the receiver posts next is then the one it received.
fn shared(ui: Ui) -> Shared {
    let q = crate::url::to_query(&UrlState {
        settings: ui.settings.get(),
        speed: Some(ui.speed.get()),
        theme: ui.theme.get(),
        zoom: ui.zoom.get(),
        tour: ui.tour.get(),
        ..UrlState::default()
    });
    (q, ui.playhead.get(), ui.playing.get(), ui.revealed.get())
}

/// A Lamport stamp (count, window id) of a part of the shared state: the higher wins, so both
/// windows end on the same state even when their changes cross (a frame of the presenter's
/// playback in flight while the audience steps the tour).
type Stamp = (f64, String);

/// Joins the presenter view when this window has a part in it (now or once `open` gives it
/// one). `apply` sets a received link's settings, tour step and zoom (as Back does).
pub fn start(ui: Ui, apply: impl Fn(UrlState) + 'static) {
    let id = js_sys::Math::random().to_string();
    let last = StoredValue::new(None::<Shared>);
    // The query's and the playhead's stamps, apart: the presenter's playback frames do not
    // outrank a tour step or a setting changed in the other window.
    let (qs, ts) = (
        StoredValue::new((0.0, id.clone())),
        StoredValue::new((0.0, id.clone())),
    );
    // The audience's window posts nothing until it has heard from the other window: its own
    // link (autoplaying, say) must not overrule the presenter's state before that arrives.
    let heard = StoredValue::new(false);
    let chan = StoredValue::new_local(None::<web_sys::BroadcastChannel>);
    let own = id.clone();
    let post = move |s: &Shared, hello: bool| {
        let m = js_sys::Array::new();
        m.push(&own.as_str().into());
        m.push(&s.0.as_str().into());
        m.push(&(s.1 as f64).into());
        for b in [
            s.2,
            s.3,
            ui.role.get_untracked() == Some(Role::Notes),
            hello,
        ] {
            m.push(&b.into());
        }
        m.push(&qs.with_value(|x| x.0).into());
        m.push(&ts.with_value(|x| x.0).into());
        chan.with_value(|c| {
            if let Some(c) = c {
                let _ = c.post_message(&m);
            }
        });
        // The same message straight to the window this one opened and to the one that opened it
        // (another origin's, or none, answers with an error; a closed one is skipped).
        let get = |o: &JsValue, k: &str| js_sys::Reflect::get(o, &k.into());
        for k in ["opener", "__rsAudience"] {
            let Ok(peer) = get(&window(), k) else {
                continue;
            };
            if get(&peer, "closed").is_ok_and(|c| c.is_falsy()) {
                if let Ok(f) =
                    get(&peer, "__rsPresent").and_then(|f| f.dyn_into::<js_sys::Function>())
                {
                    let _ = f.call1(&JsValue::NULL, &m);
                }
            }
        }
    };
    let answer = post.clone();
    let me = id.clone();
    let receive = move |data: JsValue| {
        let m = js_sys::Array::from(&data);
        let text = |i| m.get(i).as_string().unwrap_or_default();
        let from = text(0);
        if from == me || m.length() < 9 {
            return;
        }
        let flag = |i| m.get(i).is_truthy();
        let own_notes = ui.role.get_untracked() == Some(Role::Notes);
        if flag(6) {
            // A window joined: the presenter's tells it what is on screen.
            if own_notes {
                if let Some(s) = last.get_value() {
                    answer(&s, false);
                }
            }
            return;
        }
        heard.set_value(true);
        // Whether the message's stamp of a part outranks the state on screen (then taken).
        let newer = |mine: StoredValue<Stamp>, i| {
            let theirs: Stamp = (m.get(i).as_f64().unwrap_or(0.0), from.clone());
            let take = mine.with_value(|x| (x.0, &x.1) < (theirs.0, &theirs.1));
            if take {
                mine.set_value(theirs);
            }
            take
        };
        let (q, t, playing, revealed) = (
            text(1),
            m.get(2).as_f64().unwrap_or(0.0) as i64,
            flag(3),
            flag(4),
        );
        let mut now_on = last.get_value().unwrap_or_default();
        if newer(qs, 7) && now_on.0 != q {
            let st = crate::imported::reparse(&q, ui.settings.with_untracked(|x| x.custom.clone()));
            if let Some(i) = st.speed.filter(|i| *i != ui.speed.get_untracked()) {
                ui.speed.set(i);
            }
            if st.theme != ui.theme.get_untracked() {
                ui.theme.set(st.theme);
            }
            apply(st);
            now_on.0 = q;
        }
        if newer(ts, 8) {
            if flag(5) && playing && !own_notes {
                crate::playback::follow_until(now() + FOLLOW_MS);
            }
            if ui.playhead.get_untracked() != t {
                ui.playhead.set(t);
            }
            if ui.playing.get_untracked() != playing {
                ui.playing.set(playing);
            }
            if ui.revealed.get_untracked() != revealed {
                ui.revealed.set(revealed);
            }
            (now_on.1, now_on.2, now_on.3) = (t, playing, revealed);
        }
        last.set_value(Some(now_on));
    };
    let receive = std::rc::Rc::new(receive);
    Effect::new(move |_| {
        let Some(role) = ui.role.get() else { return };
        let s = shared(ui);
        if chan.with_value(Option::is_none) {
            let Ok(c) = web_sys::BroadcastChannel::new("restartscope-present") else {
                return;
            };
            let r = receive.clone();
            let f =
                Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
                    // The window that opened this one (reloaded since, it knows no audience)
                    // learns to hand its messages here directly (`post`).
                    if let Ok(o) = js_sys::Reflect::get(&window(), &"opener".into()) {
                        let _ = js_sys::Reflect::set(&o, &"__rsAudience".into(), &window());
                    }
                    r(ev.data())
                });
            c.set_onmessage(Some(f.as_ref().unchecked_ref()));
            f.forget();
            chan.set_value(Some(c));
            // Called by the other window's `post`, maybe while this window's effects run (its
            // hello answered at once): nothing read here subscribes them.
            let r = receive.clone();
            let f = Closure::<dyn Fn(JsValue)>::new(move |m| untrack(|| r(m)));
            let _ = js_sys::Reflect::set(&window(), &"__rsPresent".into(), f.as_ref());
            f.forget();
            document().set_title(&format!(
                "RestartScope · {}",
                if role == Role::Notes {
                    "presenter"
                } else {
                    "audience"
                }
            ));
            if role == Role::Audience {
                // The audience's own link does not overrule the presenter: it asks instead.
                last.set_value(Some(s.clone()));
                post(&s, true);
                return;
            }
        }
        if role == Role::Audience && !heard.get_value() {
            last.set_value(Some(s));
            return;
        }
        let (new_q, new_t) = last.with_value(|l| match l {
            Some(l) => (l.0 != s.0, (l.1, l.2, l.3) != (s.1, s.2, s.3)),
            None => (true, true),
        });
        let bump = |x: &mut Stamp| *x = (x.0 + 1.0, id.clone());
        if new_q {
            qs.update_value(bump);
        }
        if new_t {
            ts.update_value(bump);
        }
        if new_q || new_t {
            post(&s, false);
            last.set_value(Some(s));
        }
    });
}

/// The presenter view from here: this window becomes the presenter's (controls, speaker notes)
/// and the audience's opens beside it on the same state, for the projector. In the audience's
/// window it does nothing (false).
pub fn open(ui: Ui) -> bool {
    if ui.role.get_untracked() == Some(Role::Audience) {
        return false;
    }
    let q = untrack(|| {
        ui.url_state().map(|st| {
            crate::url::to_query(&UrlState {
                settings: ui.settings.get(),
                t_ms: Some(ui.playhead.get()),
                embed: false,
                present: true,
                role: Some(Role::Audience),
                ..st
            })
        })
    });
    ui.present.set(false);
    ui.role.set(Some(Role::Notes));
    if let (Some(w), Some(q)) = (web_sys::window(), q) {
        let link = crate::ui::page_link(&q);
        let opened = w.open_with_url_and_target_and_features(
            &link,
            "restartscope-audience",
            "popup,width=1280,height=720",
        );
        // A blocked pop-up: the presenter's window works alone; the audience's opens by hand.
        if let Ok(Some(a)) = opened {
            let _ = js_sys::Reflect::set(&w, &"__rsAudience".into(), &a);
        } else {
            ui.notices.update(|n| {
                n.push(format!(
                    "The browser did not open the audience's window: open {link} in another window or tab."
                ))
            });
        }
    }
    true
}
