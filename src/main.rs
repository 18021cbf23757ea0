use leptos::prelude::*;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(App);
}

#[component]
fn App() -> impl IntoView {
    let (downtime, set_downtime) = signal(20u32);
    view! {
        <main>
            <h1>"RestartScope"</h1>
            <label for="downtime">"Kubelet downtime"</label>
            <input id="downtime" type="range" min="0" max="600" prop:value=move || downtime.get().to_string()
                on:input=move |ev| set_downtime.set(event_target_value(&ev).parse().unwrap_or(0)) />
            <p id="downtime-text">{move || format!("Kubelet down for {} s", downtime.get())}</p>
        </main>
    }
}
