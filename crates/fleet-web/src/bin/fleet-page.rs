//! The fleet view's page (fleet/index.html).
fn main() {
    restartscope_fleet_web::page::start();
}
