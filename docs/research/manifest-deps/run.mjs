import fs from 'fs';
const [wasmPath, input] = process.argv.slice(2);
const {instance} = await WebAssembly.instantiate(fs.readFileSync(wasmPath), {});
const e = instance.exports, b = fs.readFileSync(input);
const p = e.alloc(b.length); new Uint8Array(e.memory.buffer, p, b.length).set(b);
console.log(String(e.parse(p, b.length)));
