//! Share and export: copy the link, download the figure (SVG, PNG) and the JSON trace — the same
//! files as the `restartscope` command line (`crate::export` does the downloads).

use crate::export::{copy_text, download_png, download_text};
use crate::ui::Ui;
use leptos::prelude::*;
use restartscope_figure::Animation;

#[component]
pub fn Export() -> impl IntoView {
    let ui = Ui::get();
    let (runs, copied) = (ui.runs, ui.copied);
    // The markdown last copied, shown under the buttons (what to save the SVG as).
    let readme = RwSignal::new(None::<String>);
    let readme_warn = RwSignal::new(None::<String>);
    view! {
        <section class="export" aria-label="Share and export">
            <button id="copy-link" type="button" on:click=move |_| {
                copy_text(&ui.link());
                copied.set(true);
            }>{move || if copied.get() { "✓ Link copied" } else { "Copy link" }}</button>
            <button id="download-svg" type="button" on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                let _ = download_text(&format!("{}.svg", r.file_stem()), "image/svg+xml", &r.figure.to_svg());
            })>"Download SVG"</button>
            <button id="download-png" type="button" on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                // The PNG takes the page's theme, not the reader's system one: the SVG's dark
                // block (`@media (prefers-color-scheme: dark)`) always or never applies.
                let dark = ui.effective_theme() == crate::url::Theme::Dark;
                let svg = r.figure.to_svg().replace(
                    "@media (prefers-color-scheme: dark)",
                    if dark { "@media all" } else { "@media not all" },
                );
                let _ = download_png(&format!("{}.png", r.file_stem()), &svg, r.figure.width, r.figure.height);
            })>"Download PNG"</button>
            // The figure as GitHub shows it where iframes and scripts are stripped —
            // an SVG that plays inside <img> (CSS only), and the markdown to put it in a README.
            <button id="download-animated-svg" type="button" on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                let svg = r.export_figure().to_svg_animated(&r.traces, &Animation::default());
                let _ = download_text(&format!("{}-animated.svg", r.file_stem()), "image/svg+xml", &svg);
            })>"Download animated SVG"</button>
            <button id="copy-readme" type="button"
                title="Markdown for a README or a KEP: the animated SVG (save it beside the page) linked to this screen"
                on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                    // A loopback or private address opens nothing for the README's readers: the
                    // published site's link when the build knows it, and a warning either way.
                    let (link, warn) = crate::components::qr::for_readme(&ui.full_link(), crate::components::qr::PUBLISHED);
                    let md = format!("[![{}]({}-animated.svg)]({link})", r.alt_text().replace(['[', ']'], ""), r.file_stem());
                    copy_text(&md);
                    readme.set(Some(md));
                    readme_warn.set(warn);
                })>{move || if readme.with(Option::is_some) { "✓ Markdown copied" } else { "Copy for a README" }}</button>
            <button id="download-json" type="button" on:click=move |_| runs.with_untracked(|r| if let Some(r) = r {
                let json = restartscope_report::json::render(&r.scenario, &r.traces);
                let _ = download_text(&format!("{}.json", r.file_stem()), "application/json", &json);
            })>"Download JSON trace"</button>
            <span class="hint">"Same SVG and JSON as the "<code>"restartscope"</code>" command line."</span>
            {move || readme.get().map(|md| view! {
                <p class="readme-md" id="readme-md" role="status">"Copied — save the animated SVG beside your page: "<code>{md}</code>
                    {move || readme_warn.get().map(|w| view! { <br/><strong class="readme-warn" id="readme-warn">{w}</strong> })}</p>
            })}
        </section>
    }
}
