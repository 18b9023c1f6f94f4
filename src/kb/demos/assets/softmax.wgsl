// 数值稳定的 softmax：每个工作组处理一行。
//   y[i] = exp(x[i] - max(x)) / Σ_j exp(x[j] - max(x))
// 先减去行最大值，指数的参数都 ≤ 0，f32 不会上溢（输入取 ±100 时，
// 不减最大值的朴素写法会算出 exp(100) ≈ 2.7e43，超出 f32 范围）。
// 每行元素数 n 不必是工作组大小的倍数：每个线程以 WG 为步长遍历整行。

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

const WG: u32 = 256u;
var<workgroup> red: array<f32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  // 行数可能超过单维 65535 个工作组，因此按二维网格展开。
  let row = wid.y * nwg.x + wid.x;
  if (row >= P.rows) { return; }
  let n = P.cols;
  let base = row * n;

  // 1) 行最大值（树形归约）
  var m = -3.402823e38;
  for (var i = lid; i < n; i += WG) { m = max(m, x[base + i]); }
  red[lid] = m;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red[lid] = max(red[lid], red[lid + s]); }
    workgroupBarrier();
  }
  let rowMax = red[0];
  workgroupBarrier();

  // 2) Σ exp(x - max)
  var acc = 0.0;
  for (var i = lid; i < n; i += WG) { acc += exp(x[base + i] - rowMax); }
  red[lid] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }
  let inv = 1.0 / red[0];

  // 3) 归一化写回
  for (var i = lid; i < n; i += WG) { y[base + i] = exp(x[base + i] - rowMax) * inv; }
}
