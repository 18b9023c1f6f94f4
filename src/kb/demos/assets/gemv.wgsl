// GEMV：解码阶段每步一个 token，线性层退化为矩阵-向量乘。
//   y[r] = Σ_k W[r, k] · x[k]     （W 为 M×K，按行存储）
// 每个工作组算一行输出：线程以 WG 为步长读该行（相邻线程读相邻地址，合并访存），
// 再做树形归约。K 不必是工作组大小的倍数；M 可超过单维 65535 个工作组（二维网格）。
// 这一步几乎只受显存带宽限制：每个权重只用一次，所以用 GB/s 衡量。

struct Params {
  rows: u32,
  cols: u32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> W: array<f32>;
@group(0) @binding(2) var<storage, read> x: array<f32>;
@group(0) @binding(3) var<storage, read_write> y: array<f32>;

const WG: u32 = 256u;
var<workgroup> red: array<f32, WG>;

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let row = wid.y * nwg.x + wid.x;
  if (row >= P.rows) { return; }
  let k = P.cols;
  let base = row * k;

  var acc = 0.0;
  for (var i = lid; i < k; i += WG) { acc += W[base + i] * x[i]; }
  red[lid] = acc;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }
  if (lid == 0u) { y[row] = red[0]; }
}
