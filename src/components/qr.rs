//! The presenter's QR code: in presentation view, the link to what is on the screen
//! (`Ui::audience_link`: the same settings, tour step and zoom, in the everyday view) as a QR
//! code in the header, so the audience opens the same state on their phones; a click or Q shows
//! it large over the page, Escape or a click closes it. Encoded by `qrcodegen` (Project
//! Nayuki's encoder), drawn as one SVG path, dark on white whatever the theme (a phone's camera
//! wants the contrast).

use crate::ui::Ui;
use leptos::prelude::*;
use qrcodegen::{QrCode, QrCodeEcc};

/// How long (ms) the link must rest before the code is encoded again.
const QR_REST_MS: u32 = 300;

/// Modules of quiet zone around the code (the standard's four).
const QUIET: i32 = 4;

/// The site's published address, set when the page is built for publishing (the Pages workflow
/// sets `RESTARTSCOPE_PUBLIC_URL`): offered to phones when the page is served on loopback.
pub const PUBLISHED: Option<&str> = option_env!("RESTARTSCOPE_PUBLIC_URL");

/// Where the page is served from, for the audience's phones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// A public name or address: phones open the link as it is.
    Public,
    /// Loopback (`localhost`, 127.0.0.0/8, `::1`): no phone can open it.
    Loopback,
    /// A private or link-local address (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7,
    /// fe80::/10, `*.local`): only phones on the same network can.
    Private,
}

/// How far a link on `host` (the URL's host, without port; IPv6 in brackets or not) reaches.
pub fn reach(host: &str) -> Reach {
    let h = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase();
    if h == "localhost" || h.ends_with(".localhost") || h == "::1" || h.starts_with("127.") {
        return Reach::Loopback;
    }
    // fe80::/10 and fc00::/7 only as IPv6 literals (a name such as fd.example.org is public).
    let v6_private = h.contains(':') && ["fe80:", "fc", "fd"].iter().any(|p| h.starts_with(p));
    if h.ends_with(".local") || v6_private {
        return Reach::Private;
    }
    let o: Vec<u8> = h.split('.').filter_map(|p| p.parse().ok()).collect();
    if o.len() == 4 && h.split('.').count() == 4 {
        let private = o[0] == 10
            || (o[0] == 172 && (16..=31).contains(&o[1]))
            || (o[0] == 192 && o[1] == 168)
            || (o[0] == 169 && o[1] == 254);
        if private {
            return Reach::Private;
        }
    }
    Reach::Public
}

/// The link the code carries and the words beside it: a loopback page's link is of no use to a
/// phone, so the published site's (same query) is offered instead when the build knows it, and
/// the presenter is told either way.
pub fn for_phones(link: &str, published: Option<&str>) -> (String, Option<String>) {
    let (base, query) = match link.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (link, None),
    };
    let host = base
        .split_once("://")
        .map_or("", |(_, rest)| rest.split('/').next().unwrap_or(""));
    // The port, if any (not inside an IPv6 literal's brackets).
    let host = match host.rsplit_once(':') {
        Some((h, p)) if p.bytes().all(|b| b.is_ascii_digit()) && !h.ends_with(':') => h,
        _ => host,
    };
    let shown = host.trim_start_matches('[').trim_end_matches(']');
    match (reach(host), published) {
        (Reach::Public, _) => (link.to_string(), None),
        (Reach::Loopback, Some(p)) => {
            let p = p.split(['?', '#']).next().unwrap_or(p);
            let to = match query {
                Some(q) => format!("{p}?{q}"),
                None => p.to_string(),
            };
            (
                to,
                Some(format!(
                    "Phones can't open {shown}: this code opens the same screen on the published site, {p}"
                )),
            )
        }
        (Reach::Loopback, None) => (
            link.to_string(),
            Some(format!(
                "Phones can't open {shown}: serve on your network address (make run HOST=0.0.0.0) or use the published site"
            )),
        ),
        (Reach::Private, _) => (
            link.to_string(),
            Some(format!(
                "{shown} is a private address: only phones on this network can open it"
            )),
        ),
    }
}

/// The link "Copy for a README" puts in the Markdown, and a warning when the page's own address
/// is of no use to the README's readers: a loopback page's link opens nothing for them, so the
/// published site's (same query) is used when the build knows it; a private address opens only
/// on this network. The same reach as the QR code's ([`for_phones`]).
pub fn for_readme(link: &str, published: Option<&str>) -> (String, Option<String>) {
    let (to, note) = for_phones(link, published);
    let note = note.map(|n| {
        if let Some(rest) = n.strip_prefix("Phones can't open ") {
            let (host, tail) = rest.split_once(':').unwrap_or((rest, ""));
            if to != link {
                format!("Readers can't open {host}: the link goes to the same screen on the published site{}", tail.split_once(", ").map(|(_, p)| format!(", {p}")).unwrap_or_default())
            } else {
                format!("Readers can't open {host}, this computer's own address: replace the link with the address where RestartScope is published (or serve it there)")
            }
        } else {
            n.replace("only phones on this network can open it", "only readers on this network can open the link")
        }
    });
    (to, note)
}

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
    let phones = Memo::new(move |_| {
        ui.present
            .get()
            .then(|| for_phones(&ui.audience_link(), PUBLISHED))
    });
    let now = Memo::new(move |_| phones.get().map(|p| p.0));
    // The code follows the link once it has rested QR_REST_MS: a drag changes the link on every
    // move, and encoding it and replacing the code's SVG cost each move about a millisecond (in
    // the audience's window too, which shares the presenter's event loop), for a code no phone
    // can scan while it changes. Shown at once when it first appears.
    let link = RwSignal::new(now.get_untracked());
    let pending = StoredValue::new_local(crate::rest::Rest::new());
    Effect::new(move |_| {
        let l = now.get();
        if l.is_none() || link.with_untracked(Option::is_none) {
            pending.with_value(crate::rest::Rest::cancel);
            link.set(l);
        } else if link.with_untracked(|cur| *cur != l) {
            pending.with_value(|p| p.after(QR_REST_MS, move || link.set(l)));
        } else {
            // Back to the link the code shows: nothing to wait for.
            pending.with_value(crate::rest::Rest::cancel);
        }
    });
    let note = move || phones.get().and_then(|p| p.1);
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
            {move || note().map(|n| view! { <span class="qr-warn" id="qr-note" role="note">{n}</span> })}
        </Show>
        <Show when=move || ui.present.get() && ui.qr_big.get()>
            <div class="qr-big" id="qr-big" role="dialog" aria-modal="false" aria-label="This screen's link as a QR code"
                on:click=move |_| ui.qr_big.set(false)>
                {move || svg("qr")}
                <p class="qr-link">{move || link.get().unwrap_or_default()}</p>
                {move || note().map(|n| view! { <p class="qr-warn">{n}</p> })}
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

    #[test]
    fn a_readme_link_on_loopback_or_a_private_address_is_warned_of() {
        let l = "http://127.0.0.1:8080/?preset=long-restart";
        let (to, note) = for_readme(l, None);
        assert_eq!(to, l);
        assert!(note
            .unwrap()
            .starts_with("Readers can't open 127.0.0.1, this computer's own address"));
        let (to, note) = for_readme(l, Some("https://example.org/restartscope/"));
        assert_eq!(to, "https://example.org/restartscope/?preset=long-restart");
        assert!(note
            .unwrap()
            .contains("published site, https://example.org/restartscope/"));
        let (_, note) = for_readme("http://192.168.1.5:8080/?x=1", None);
        assert!(note.unwrap().contains("only readers on this network"));
        assert_eq!(for_readme("https://kubernetes.io/x?y=1", None).1, None);
    }

    #[test]
    fn a_loopback_or_private_origin_is_said_and_the_published_site_offered() {
        for h in ["localhost", "127.0.0.1", "[::1]", "app.localhost"] {
            assert_eq!(reach(h), Reach::Loopback, "{h}");
        }
        for h in [
            "10.0.0.3",
            "172.20.1.1",
            "192.168.1.5",
            "169.254.0.9",
            "[fd00::1]",
            "pi.local",
        ] {
            assert_eq!(reach(h), Reach::Private, "{h}");
        }
        for h in [
            "example.org",
            "172.32.0.1",
            "8.8.8.8",
            "fd.example.org",
            "10.0.0.3.nip.io",
        ] {
            assert_eq!(reach(h), Reach::Public, "{h}");
        }
        let l = "http://127.0.0.1:8080/?preset=long-restart&tour=kep-4781&step=3";
        let (to, note) = for_phones(l, None);
        assert_eq!(to, l);
        assert!(note
            .unwrap()
            .starts_with("Phones can't open 127.0.0.1: serve on your network"));
        let (to, note) = for_phones(l, Some("https://example.github.io/restartscope/"));
        assert_eq!(
            to,
            "https://example.github.io/restartscope/?preset=long-restart&tour=kep-4781&step=3"
        );
        assert!(note
            .unwrap()
            .contains("published site, https://example.github.io/restartscope/"));
        let (to, note) = for_phones("http://192.168.1.5:8080/?preset=x", None);
        assert_eq!(to, "http://192.168.1.5:8080/?preset=x");
        assert!(note.unwrap().contains("192.168.1.5 is a private address"));
        assert_eq!(
            for_phones("https://example.org/rs/?a=1", None),
            ("https://example.org/rs/?a=1".into(), None)
        );
    }
}
