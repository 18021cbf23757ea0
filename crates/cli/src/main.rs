fn main() { println!("restartscope {}", restartscope_sim::version()); }
