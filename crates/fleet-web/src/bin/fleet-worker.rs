//! The fleet view's Web Worker: runs the model off the page's thread.
fn main() {
    restartscope_fleet_web::worker::start();
}
