// 解码一步的注意力：每个头只有一个新 query，对 KV Cache 中已有的 L 个位置做注意力。
//   s[t] = (q · K[t]) / sqrt(d)
//   o    = Σ_t softmax(s)[t] · V[t]
// 可选 top-k 稀疏注意力（topk > 0）：只保留得分最高的 k 个位置再做 softmax，
// 其余位置的 V 不读取。这正是 RetroInfer、CRISP 等稀疏/检索式注意力的出发点：
// 解码时注意力高度集中，只取回关键 KV 即可。
// 第 k 大的得分用二分查找求得：把 f32 映射为保序的 u32，逐位（32 步）确定阈值，
// 每一步统计 ≥ 阈值的位置数，因此选中集合是精确的 top-k（并列时一并保留）。
// 每个工作组处理一个头；L、d 都不必是工作组大小的倍数（d ≤ 256）。
// 布局：q[h][j]，K/V[h][t][j]，输出 o[h][j]；sc 是每个头 L 个得分的暂存区。

struct Params {
  heads: u32,
  len: u32,
  dim: u32,
  topk: u32,
  scale: f32,
}

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> kc: array<f32>;
@group(0) @binding(3) var<storage, read> vc: array<f32>;
@group(0) @binding(4) var<storage, read_write> o: array<f32>;
@group(0) @binding(5) var<storage, read_write> sc: array<f32>;

const WG: u32 = 256u;
var<workgroup> red: array<f32, WG>;
var<workgroup> cnt: array<u32, WG>;
var<workgroup> qs: array<f32, WG>;

// 保序映射：a < b（f32）⇔ sortable(a) < sortable(b)（u32）。
fn sortable(s: f32) -> u32 {
  let b = bitcast<u32>(s);
  return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
  let h = wid.y * nwg.x + wid.x;
  if (h >= P.heads) { return; }
  let L = P.len;
  let d = P.dim;
  let srow = h * L;

  for (var j = lid; j < d; j += WG) { qs[j] = q[h * d + j]; }
  workgroupBarrier();

  // 1) 注意力得分与最大值
  var m = -3.402823e38;
  for (var t = lid; t < L; t += WG) {
    let kb = (srow + t) * d;
    var s = 0.0;
    for (var j = 0u; j < d; j++) { s += qs[j] * kc[kb + j]; }
    s *= P.scale;
    sc[srow + t] = s;
    m = max(m, s);
  }
  red[lid] = m;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red[lid] = max(red[lid], red[lid + s]); }
    workgroupBarrier();
  }
  let smax = red[0];
  workgroupBarrier();

  // 2) top-k 阈值：满足 count(key ≥ T) ≥ k 的最大 T，即第 k 大得分的键。
  //    稠密注意力时 T = 0，所有位置都保留。
  var thr = 0u;
  if (P.topk > 0u && P.topk < L) {
    for (var bit = 31i; bit >= 0i; bit--) {
      let cand = thr | (1u << u32(bit));
      var c = 0u;
      for (var t = lid; t < L; t += WG) {
        c += select(0u, 1u, sortable(sc[srow + t]) >= cand);
      }
      cnt[lid] = c;
      workgroupBarrier();
      for (var s = WG / 2u; s > 0u; s >>= 1u) {
        if (lid < s) { cnt[lid] += cnt[lid + s]; }
        workgroupBarrier();
      }
      thr = select(thr, cand, cnt[0] >= P.topk);
      workgroupBarrier();
    }
  }

  // 3) 概率（未选中的位置为 0）与归一化因子
  var sum = 0.0;
  for (var t = lid; t < L; t += WG) {
    let s = sc[srow + t];
    let p = select(0.0, exp(s - smax), sortable(s) >= thr);
    sc[srow + t] = p;
    sum += p;
  }
  red[lid] = sum;
  workgroupBarrier();
  for (var s = WG / 2u; s > 0u; s >>= 1u) {
    if (lid < s) { red[lid] += red[lid + s]; }
    workgroupBarrier();
  }
  let inv = 1.0 / red[0];
  storageBarrier();  // 让其他线程看到本线程写入 sc 的概率
  workgroupBarrier();

  // 4) o = Σ p[t] · V[t]：把线程分成 G 组，每组 d 个线程各管一列，组间按位置交错，
  //    最后把 G 份部分和相加。概率为 0 的位置不读 V。
  let G = WG / d;
  let g = lid / d;
  let j = lid % d;
  var acc = 0.0;
  if (g < G) {
    for (var t = g; t < L; t += G) {
      let p = sc[srow + t];
      if (p != 0.0) { acc += p * vc[(srow + t) * d + j]; }
    }
  }
  red[lid] = acc;
  workgroupBarrier();
  if (lid < d) {
    var total = 0.0;
    for (var gg = 0u; gg < G; gg++) { total += red[gg * d + lid]; }
    o[h * d + lid] = total * inv;
  }
}
