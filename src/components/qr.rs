//! The presenter's QR code (issue 26): in presentation view, the link to what is on the screen
//! (`Ui::audience_link`: the same settings, tour step and zoom, in the everyday view) as a QR
//! code in the header, so the audience opens the same state on their phones; a click or Q shows
//! it large over the page, Escape or a click closes it. Encoded by `qrcodegen` (Project
//! Nayuki's encoder), drawn as one SVG path, dark on white whatever the theme (a phone's camera
//! wants the contrast).

use crate::ui::Ui;
use leptos::prelude::*;
use qrcodegen::{QrCode, QrCodeEcc};

/// Modules of quiet zone around the code (the standard's four).
const QUIET: i32 = 4;

/// The code's SVG (`viewBox` in modules, the quiet zone included), or `None` when the link is
/// too long for a QR code (a large imported workload).
pub fn qr_svg(text: &str) -> Option<(i32, String)> {
    let code = QrCode::encode_text(text, QrCodeEcc::Medium)
        .or_else(|_| QrCode::encode_text(text, QrCodeEcc::Low))
        .ok()?;
    let n = code.size();
    let mut d = String::with_capacity((n * n) as usize * 4);
    for y in 0..n {
        let mut x = 0;
        while x < n {
            if code.get_module(x, y) {
                let start = x;
                while x < n && code.get_module(x, y) {
                    x += 1;
                }
                d.push_str(&format!(
                    "M{} {}h{}v1h-{}z",
                    start + QUIET,
                    y + QUIET,
                    x - start,
                    x - start
                ));
            } else {
                x += 1;
            }
        }
    }
    Some((n + 2 * QUIET, d))
}

#[component]
pub fn Qr() -> impl IntoView {
    let ui = Ui::get();
    // Only in presentation view: the link (a memo: the code is encoded again only when the link
    // changes, never per frame of playback).
    let link = Memo::new(move |_| ui.present.get().then(|| ui.audience_link()));
    let code = Memo::new(move |_| link.get().map(|l| qr_svg(&l)));
    let svg = move |class: &'static str| {
        code.get().map(|c| match c {
            Some((size, d)) => view! {
                <svg class=class viewBox=format!("0 0 {size} {size}") shape-rendering="crispEdges"
                    role="img" aria-label="QR code of this screen's link">
                    <rect width=size.to_string() height=size.to_string() fill="#fff" />
                    <path d=d fill="#000" />
                </svg>
            }
            .into_any(),
            None => view! { <span class="qr-none">"Link too long for a QR code"</span> }.into_any(),
        })
    };
    view! {
        <Show when=move || ui.present.get()>
            <button id="qr-open" class="qr-small" type="button" aria-keyshortcuts="Q"
                title="This screen on your phone: scan, or press Q to show it large"
                aria-expanded=move || ui.qr_big.get().to_string()
                on:click=move |_| ui.qr_big.update(|b| *b = !*b)>
                {move || svg("qr")}
                <span class="qr-label">"On your phone"</span>
            </button>
        </Show>
        <Show when=move || ui.present.get() && ui.qr_big.get()>
            <div class="qr-big" id="qr-big" role="dialog" aria-modal="false" aria-label="This screen's link as a QR code"
                on:click=move |_| ui.qr_big.set(false)>
                {move || svg("qr")}
                <p class="qr-link">{move || link.get().unwrap_or_default()}</p>
                <p class="qr-hint">"Scan to open this screen on your phone · Esc or a click closes"</p>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_becomes_a_code_with_its_quiet_zone_and_a_long_one_is_refused() {
        let (size, d) =
            qr_svg("https://example.org/restartscope/?preset=short-restart&tour=kep-4781&step=2")
                .unwrap();
        assert!(size >= 21 + 8 && size % 2 == 1, "{size}");
        assert!(
            d.starts_with("M4 4h7v1h-7z"),
            "the finder pattern's top row first: {}",
            &d[..20]
        );
        assert!(qr_svg(&"x".repeat(5000)).is_none());
    }
}
