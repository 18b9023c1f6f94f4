// RMSNorm：每个工作组处理一行（一个 token 的隐藏向量）。
//   y[i] = x[i] / sqrt(mean(x²) + eps) · w[i]
// 隐藏维度 n 不必是工作组大小的倍数：每个线程以 WG 为步长遍历整行。

struct Params {
  rows: u32,
  cols: u32,
  eps: f32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;

const WG: u32 = 256u;
var<workgroup> red: array<f32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.y * nwg.x + wid.x;
  if (row >= P.rows) { return; }
  let n = P.cols;
  let base = row * n;

  // 1) 平方和（树形归约）
  var acc = 0.0;
  for (var i = lid; i < n; i += WG) {
    let v = x[base + i];
    acc += v * v;
  }
  red[lid] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }
  let inv = inverseSqrt(red[0] / f32(n) + P.eps);

  // 2) 缩放并乘以逐通道权重
  for (var i = lid; i < n; i += WG) { y[base + i] = x[base + i] * inv * w[i]; }
}
