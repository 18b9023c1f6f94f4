// kb-demos.js：WebGPU 内核演示的本地运行框架（纯 ES 模块，无依赖，不访问网络）。
//
// 页面中每个 <div class="kb-demo" data-kernel="…" data-demo-id="…"> 会被装配成一个演示：
// 显示 WGSL 源码、尺寸输入框和“运行”按钮；运行时在读者的 GPU 上执行内核，
// 与 JavaScript 的 CPU 参考实现逐元素对照（给出容差），并报告每次耗时与吞吐。
// 浏览器没有 WebGPU 时明确说明，只运行 CPU 参考实现。
//
// 着色器与本文件放在同一目录，按 import.meta.url 解析相对地址取回。
// 测试接口：window.kbDemos.run(id, sizes, {gridX}) → Promise<{backend, maxAbsErr, tolerance, ok,
//   msPerRun, throughput, unit, gflops, cpuMsPerRun, sizes, adapter}>；window.kbDemos.ready。

const MAX_ELEMS = 1 << 24; // 单个缓冲区最多 16M 个 f32（64 MiB），低于 WebGPU 默认的 128 MiB 绑定上限
const REPS = { key: 'reps', label: '计时重复次数', value: 20, min: 1, max: 1000 };

const MSG = {
  missing: '此浏览器不支持 WebGPU，仅运行 CPU 参考实现。',
  adapter: '此浏览器不支持 WebGPU（未取得 GPU 适配器），仅运行 CPU 参考实现。',
  device: '无法创建 WebGPU 设备，仅运行 CPU 参考实现。',
  lost: 'WebGPU 设备已丢失，下次运行时将重新初始化。',
};

// ------------------------------------------------------------------ 输入数据与 CPU 参考实现

function rng(seed) { // mulberry32：确定性伪随机数，每次运行输入相同
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function uniform(n, seed, lo, hi) {
  const r = rng(seed);
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = lo + (hi - lo) * r();
  return a;
}

const f32 = Math.fround;

function tooBig(...counts) {
  return counts.some((c) => c > MAX_ELEMS) ? `单个缓冲区不能超过 ${MAX_ELEMS} 个元素，请减小尺寸。` : null;
}

// 每个内核：尺寸字段、输入、CPU 参考（float64 计算）、GPU 作业描述、容差与计量。
// GPU 绑定约定：0 = 参数（uniform），1..n = 输入，n+1 = 输出，n+2 = 暂存区（可选）。
const KERNELS = {
  softmax: {
    sizes: [
      { key: 'rows', label: '行数', value: 32, min: 1, max: MAX_ELEMS },
      { key: 'cols', label: '每行元素数 n', value: 1000, min: 1, max: MAX_ELEMS },
    ],
    check: (s) => tooBig(s.rows * s.cols),
    inputs: (s) => ({ x: uniform(s.rows * s.cols, 11, -100, 100) }),
    cpu(s, { x }) {
      const y = new Float64Array(s.rows * s.cols);
      for (let r = 0; r < s.rows; r++) {
        const b = r * s.cols;
        let m = -Infinity;
        for (let i = 0; i < s.cols; i++) m = Math.max(m, x[b + i]);
        let sum = 0;
        for (let i = 0; i < s.cols; i++) sum += (y[b + i] = Math.exp(x[b + i] - m));
        for (let i = 0; i < s.cols; i++) y[b + i] /= sum;
      }
      return y;
    },
    gpu: (s, { x }) => ({ params: [['u32', s.rows], ['u32', s.cols]], inputs: [x], out: s.rows * s.cols, groups: s.rows }),
    tolerance: 1e-5,
    tolNote: '逐元素绝对误差（输出在 0 到 1 之间）',
    bytes: (s) => 4 * 2 * s.rows * s.cols,
    flops: (s) => 4 * s.rows * s.cols,
  },

  rmsnorm: {
    sizes: [
      { key: 'rows', label: '行数（token 数）', value: 16, min: 1, max: MAX_ELEMS },
      { key: 'cols', label: '隐藏维度 n', value: 4096, min: 1, max: MAX_ELEMS },
    ],
    check: (s) => tooBig(s.rows * s.cols),
    inputs: (s) => ({ x: uniform(s.rows * s.cols, 21, -3, 3), w: uniform(s.cols, 22, 0.5, 1.5) }),
    eps: 1e-6,
    cpu(s, { x, w }) {
      const y = new Float64Array(s.rows * s.cols);
      for (let r = 0; r < s.rows; r++) {
        const b = r * s.cols;
        let ss = 0;
        for (let i = 0; i < s.cols; i++) ss += x[b + i] * x[b + i];
        const inv = 1 / Math.sqrt(ss / s.cols + this.eps);
        for (let i = 0; i < s.cols; i++) y[b + i] = x[b + i] * inv * w[i];
      }
      return y;
    },
    gpu(s, { x, w }) {
      return { params: [['u32', s.rows], ['u32', s.cols], ['f32', this.eps]], inputs: [x, w], out: s.rows * s.cols, groups: s.rows };
    },
    tolerance: 1e-4,
    tolNote: '逐元素绝对误差（输出量级约为 1）',
    bytes: (s) => 4 * (2 * s.rows * s.cols + s.cols),
    flops: (s) => 4 * s.rows * s.cols,
  },

  gemv: {
    sizes: [
      { key: 'rows', label: '输出维度 M（W 的行数）', value: 2048, min: 1, max: MAX_ELEMS },
      { key: 'cols', label: '输入维度 K（W 的列数）', value: 2048, min: 1, max: MAX_ELEMS },
    ],
    check: (s) => tooBig(s.rows * s.cols),
    // 权重按 1/√K 缩放（与常见初始化一致），输出量级约为 1，固定的绝对容差才有意义。
    inputs: (s) => {
      const a = 1 / Math.sqrt(s.cols);
      return { W: uniform(s.rows * s.cols, 31, -a, a), x: uniform(s.cols, 32, -1, 1) };
    },
    cpu(s, { W, x }) {
      const y = new Float64Array(s.rows);
      for (let r = 0; r < s.rows; r++) {
        const b = r * s.cols;
        let acc = 0;
        for (let k = 0; k < s.cols; k++) acc += W[b + k] * x[k];
        y[r] = acc;
      }
      return y;
    },
    gpu: (s, { W, x }) => ({ params: [['u32', s.rows], ['u32', s.cols]], inputs: [W, x], out: s.rows, groups: s.rows }),
    tolerance: 1e-3,
    tolNote: '逐元素绝对误差（权重按 1/√K 缩放，输出量级约为 1）',
    bytes: (s) => 4 * (s.rows * s.cols + s.cols + s.rows),
    flops: (s) => 2 * s.rows * s.cols,
  },

  'attention-decode': {
    sizes: [
      { key: 'heads', label: '头数 H', value: 8, min: 1, max: MAX_ELEMS },
      { key: 'len', label: 'KV Cache 长度 L', value: 1024, min: 1, max: MAX_ELEMS },
      { key: 'dim', label: '头维度 d（≤ 256）', value: 64, min: 1, max: 256 },
      { key: 'topk', label: 'top-k（0 表示稠密注意力）', value: 0, min: 0, max: MAX_ELEMS },
    ],
    check: (s) => (s.topk > s.len ? 'top-k 不能大于 KV Cache 长度 L。' : tooBig(s.heads * s.len * s.dim)),
    inputs: (s) => ({
      q: uniform(s.heads * s.dim, 41, -1, 1),
      K: uniform(s.heads * s.len * s.dim, 42, -1, 1),
      V: uniform(s.heads * s.len * s.dim, 43, -1, 1),
    }),
    cpu(s, { q, K, V }) {
      const { heads: H, len: L, dim: d } = s;
      const sparse = s.topk > 0 && s.topk < L;
      const scale = f32(1 / Math.sqrt(d));
      const out = new Float64Array(H * d);
      const sc = new Float64Array(L);
      for (let h = 0; h < H; h++) {
        let m = -Infinity;
        for (let t = 0; t < L; t++) {
          // 得分按 f32 逐步舍入（与着色器的求和顺序相同），使 top-k 的选择与 GPU 一致；
          // 其余步骤用 float64。
          const b = (h * L + t) * d;
          let acc = 0;
          for (let j = 0; j < d; j++) acc = f32(acc + f32(q[h * d + j] * K[b + j]));
          sc[t] = f32(acc * scale);
          m = Math.max(m, sc[t]);
        }
        const thr = sparse ? Float64Array.from(sc).sort().reverse()[s.topk - 1] : -Infinity;
        let sum = 0;
        for (let t = 0; t < L; t++) {
          const p = sc[t] >= thr ? Math.exp(sc[t] - m) : 0;
          sum += p;
          if (p === 0) continue;
          const b = (h * L + t) * d;
          for (let j = 0; j < d; j++) out[h * d + j] += p * V[b + j];
        }
        for (let j = 0; j < d; j++) out[h * d + j] /= sum;
      }
      return out;
    },
    gpu: (s, { q, K, V }) => ({
      params: [['u32', s.heads], ['u32', s.len], ['u32', s.dim], ['u32', s.topk], ['f32', 1 / Math.sqrt(s.dim)]],
      inputs: [q, K, V], out: s.heads * s.dim, scratch: s.heads * s.len, groups: s.heads,
    }),
    tolerance: 1e-4,
    tolNote: '逐元素绝对误差（输出是 V 的加权平均，量级 ≤ 1）',
    // 读 K 全部、V 只读被选中的位置（稠密时为全部）、q 与输出各一次
    bytes: (s) => 4 * (s.heads * s.dim * (s.len + kept(s) + 2)),
    flops: (s) => 2 * s.heads * s.dim * (s.len + kept(s)),
  },
};

function kept(s) {
  return s.topk > 0 && s.topk < s.len ? s.topk : s.len;
}

// ------------------------------------------------------------------ WebGPU

let gpuState = null; // Promise<{device, adapter} | {device: null, reason}>
let currentState = null; // 当前设备的状态对象，用于判断“设备丢失”是否针对当前设备
const pipelines = new Map();
const sources = new Map();

function initGpu() {
  if (gpuState) return gpuState;
  gpuState = requestGpu().catch((e) => ({ device: null, reason: 'device', detail: String(e) }));
  return gpuState;
}

async function requestGpu() {
  const gpu = globalThis.navigator ? navigator.gpu : undefined;
  if (!gpu) return { device: null, reason: 'missing' };
  let adapter = null;
  try {
    adapter = await gpu.requestAdapter();
  } catch (e) {
    return { device: null, reason: 'adapter', detail: String(e) };
  }
  if (!adapter) return { device: null, reason: 'adapter' };
  let device;
  try {
    device = await adapter.requestDevice();
  } catch (e) {
    return { device: null, reason: 'device', detail: String(e) };
  }
  const info = adapter.info || {};
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || '未知适配器';
  const state = { device, adapter: name };
  device.lost.then((lost) => {
    if (gpuState && state === currentState) {
      gpuState = null;
      currentState = null;
      pipelines.clear();
      for (const ui of blocks.values()) setStatus(ui, `${MSG.lost}（${lost.message || lost.reason || ''}）`, 'warn');
    }
  });
  currentState = state;
  return state;
}

function source(kernel) {
  if (!sources.has(kernel)) {
    const url = new URL(`./${kernel}.wgsl`, import.meta.url);
    sources.set(kernel, fetch(url).then((r) => {
      if (!r.ok) throw new Error(`无法取回着色器 ${kernel}.wgsl（HTTP ${r.status}）`);
      return r.text();
    }));
  }
  return sources.get(kernel);
}

async function pipeline(device, kernel) {
  if (!pipelines.has(kernel)) {
    const p = (async () => {
      const module = device.createShaderModule({ label: kernel, code: await source(kernel) });
      const info = await module.getCompilationInfo();
      const errors = info.messages.filter((m) => m.type === 'error');
      if (errors.length) throw new Error(`WGSL 编译失败：${errors.map((m) => `${m.lineNum}:${m.linePos} ${m.message}`).join('；')}`);
      return device.createComputePipelineAsync({ label: kernel, layout: 'auto', compute: { module, entryPoint: 'main' } });
    })();
    pipelines.set(kernel, p);
    p.catch(() => pipelines.delete(kernel));
  }
  return pipelines.get(kernel);
}

function packParams(params) {
  const buf = new ArrayBuffer(Math.ceil((params.length * 4) / 16) * 16);
  const u = new Uint32Array(buf);
  const f = new Float32Array(buf);
  params.forEach(([type, v], i) => { if (type === 'u32') u[i] = v; else f[i] = v; });
  return buf;
}

async function runGpu(state, kernel, job, reps, gridX) {
  const { device } = state;
  const pipe = await pipeline(device, kernel);
  const limit = device.limits.maxStorageBufferBindingSize;
  for (const n of [job.out, job.scratch || 0, ...job.inputs.map((a) => a.length)]) {
    if (n * 4 > limit) throw new Error(`缓冲区 ${n * 4} 字节超过此设备的上限 ${limit} 字节，请减小尺寸。`);
  }
  const S = GPUBufferUsage;
  const made = [];
  const buffer = (size, usage) => { const b = device.createBuffer({ size, usage }); made.push(b); return b; };
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let failure = null;
  let result = null;
  let ms = 0;
  try {
    const params = packParams(job.params);
    const ubuf = buffer(params.byteLength, S.UNIFORM | S.COPY_DST);
    device.queue.writeBuffer(ubuf, 0, params);
    const ins = job.inputs.map((a) => {
      const b = buffer(a.byteLength, S.STORAGE | S.COPY_DST);
      device.queue.writeBuffer(b, 0, a);
      return b;
    });
    const out = buffer(job.out * 4, S.STORAGE | S.COPY_SRC);
    const read = buffer(job.out * 4, S.MAP_READ | S.COPY_DST);
    const bound = [ubuf, ...ins, out];
    if (job.scratch) bound.push(buffer(job.scratch * 4, S.STORAGE));
    const bind = device.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: bound.map((b, i) => ({ binding: i, resource: { buffer: b } })),
    });
    // 工作组数可能超过单维上限（通常 65535），按二维网格展开，着色器里再折回一维。
    const maxDim = device.limits.maxComputeWorkgroupsPerDimension;
    const gx = Math.min(job.groups, maxDim, gridX || Infinity);
    const gy = Math.ceil(job.groups / gx);
    if (gy > maxDim) throw new Error('工作组数量过多，请减小尺寸。');
    const encode = (n) => {
      const enc = device.createCommandEncoder();
      for (let i = 0; i < n; i++) {
        const pass = enc.beginComputePass();
        pass.setPipeline(pipe);
        pass.setBindGroup(0, bind);
        pass.dispatchWorkgroups(gx, gy);
        pass.end();
      }
      return enc;
    };
    // 1) 运行一次并读回，用于与 CPU 对照（兼作预热）
    const enc = encode(1);
    enc.copyBufferToBuffer(out, 0, read, 0, job.out * 4);
    device.queue.submit([enc.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    result = new Float32Array(read.getMappedRange().slice(0));
    read.unmap();
    // 2) 计时：一次提交 reps 个计算通道，等待完成；墙钟时间，含提交开销
    const t0 = performance.now();
    device.queue.submit([encode(reps).finish()]);
    await device.queue.onSubmittedWorkDone();
    ms = (performance.now() - t0) / reps;
  } catch (e) {
    failure = e;
  } finally {
    const validation = await device.popErrorScope();
    const oom = await device.popErrorScope();
    for (const b of made) b.destroy();
    const scoped = validation || oom;
    if (scoped) failure = new Error(`WebGPU 错误：${scoped.message}`);
  }
  if (failure) throw failure;
  return { result, ms };
}

// ------------------------------------------------------------------ 运行与对照

function timeCpu(fn) {
  // 至少运行一次；总时长不足 20 ms 时继续重复，避免浏览器计时器的粗分辨率（可达 0.1 ms）
  let out;
  let n = 0;
  const t0 = performance.now();
  let elapsed = 0;
  do {
    out = fn();
    n += 1;
    elapsed = performance.now() - t0;
  } while (elapsed < 20 && n < 100000);
  return { out, ms: elapsed / n };
}

function maxAbsDiff(a, b) {
  let m = 0;
  for (let i = 0; i < b.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (!(d <= m)) m = Number.isNaN(d) ? Infinity : d; // NaN 视为无穷大误差
  }
  return m;
}

async function execute(ui, overrides, options) {
  const spec = KERNELS[ui.kernel];
  const sizes = readSizes(ui, overrides);
  const problem = spec.check(sizes);
  if (problem) throw new Error(problem);
  const inp = spec.inputs(sizes);
  const cpu = timeCpu(() => spec.cpu(sizes, inp));
  const state = await initGpu();
  const res = {
    id: ui.id, kernel: ui.kernel, sizes, tolerance: spec.tolerance, unit: 'GB/s',
    cpuMsPerRun: cpu.ms, adapter: state.device ? state.adapter : null,
  };
  if (state.device) {
    const gpu = await runGpu(state, ui.kernel, spec.gpu(sizes, inp), sizes.reps, options.gridX);
    res.backend = 'webgpu';
    res.maxAbsErr = maxAbsDiff(gpu.result, cpu.out);
    res.ok = res.maxAbsErr <= spec.tolerance;
    res.msPerRun = gpu.ms;
  } else {
    res.backend = 'cpu';
    res.maxAbsErr = null;
    res.ok = null;
    res.msPerRun = cpu.ms;
  }
  // 字节/毫秒 ÷ 1e6 = GB/s；耗时低于计时器分辨率（记为 0）时不给吞吐
  const ms = res.msPerRun;
  res.throughput = ms > 0 ? spec.bytes(sizes) / ms / 1e6 : null;
  res.gflops = ms > 0 ? spec.flops(sizes) / ms / 1e6 : null;
  return res;
}

// ------------------------------------------------------------------ 页面

const blocks = new Map(); // element → ui
const fmt = (x, digits = 3) => (x === null || x === undefined ? '—' : Number(x).toPrecision(digits));

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function setStatus(ui, text, kind) {
  ui.status.textContent = text;
  ui.status.dataset.kind = kind;
}

function readSizes(ui, overrides = {}) {
  const spec = KERNELS[ui.kernel];
  const fields = [...spec.sizes, REPS];
  for (const key of Object.keys(overrides)) {
    if (!fields.some((f) => f.key === key)) throw new Error(`未知的尺寸参数：${key}`);
  }
  const sizes = {};
  for (const f of fields) {
    const input = ui.inputs[f.key];
    if (hasKey(overrides, f.key)) input.value = String(overrides[f.key]);
    const v = Number(input.value);
    if (!Number.isInteger(v) || v < f.min || v > f.max) {
      throw new Error(`“${f.label}”应为 ${f.min} 到 ${f.max} 之间的整数。`);
    }
    sizes[f.key] = v;
  }
  return sizes;
}

function hasKey(obj, key) {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

function rate(res) {
  if (res.throughput === null) return '—（耗时低于计时器分辨率，请增大尺寸或重复次数）';
  return `${fmt(res.throughput)} GB/s · ${fmt(res.gflops)} GFLOP/s`;
}

function show(ui, res) {
  const rows = [];
  if (res.backend === 'webgpu') {
    rows.push(['后端', `WebGPU（${res.adapter}）`]);
    rows.push(['对照结果', res.ok ? '通过：GPU 与 CPU 参考一致' : '失败：超出容差']);
    rows.push(['最大绝对误差', `${fmt(res.maxAbsErr)}（容差 ${res.tolerance}，${KERNELS[res.kernel].tolNote}）`]);
    rows.push(['每次耗时（GPU）', `${fmt(res.msPerRun)} ms（${res.sizes.reps} 次平均，墙钟时间，含提交开销）`]);
    rows.push(['吞吐（GPU）', rate(res)]);
    rows.push(['每次耗时（CPU 参考）', `${fmt(res.cpuMsPerRun)} ms（JavaScript 参考实现）`]);
  } else {
    rows.push(['后端', '仅 CPU 参考实现（未做 GPU 对照）']);
    rows.push(['每次耗时（CPU）', `${fmt(res.msPerRun)} ms（重复至少 20 ms 后取平均）`]);
    rows.push(['吞吐（CPU）', rate(res)]);
  }
  const dl = el('dl');
  for (const [k, v] of rows) dl.append(el('dt', { text: k }), el('dd', { text: v }));
  ui.result.replaceChildren(dl);
  ui.root.dataset.state = res.backend === 'cpu' ? 'cpu' : res.ok ? 'ok' : 'fail';
}

function showError(ui, e) {
  ui.result.replaceChildren(el('p', { class: 'kb-demo-error', role: 'alert', text: `出错：${e.message || e}` }));
  ui.root.dataset.state = 'error';
}

function run(ui, overrides, options = {}) {
  // 同一演示的运行排队执行，按钮在运行期间禁用
  const next = ui.queue.catch(() => {}).then(async () => {
    ui.button.disabled = true;
    ui.root.dataset.state = 'running';
    ui.result.replaceChildren(el('p', { text: '运行中…' }));
    try {
      const res = await execute(ui, overrides, options);
      show(ui, res);
      return res;
    } catch (e) {
      showError(ui, e);
      throw e;
    } finally {
      ui.button.disabled = false;
    }
  });
  ui.queue = next;
  return next;
}

function setup(root) {
  const kernel = root.dataset.kernel;
  const spec = KERNELS[kernel];
  const body = root.querySelector('.kb-demo-body') || root;
  if (!spec) {
    body.replaceChildren(el('p', { class: 'kb-demo-error', role: 'alert', text: `未知的内核：${kernel}` }));
    return Promise.resolve();
  }
  const ui = { root, kernel, id: root.dataset.demoId || kernel, inputs: {}, queue: Promise.resolve() };
  ui.status = el('p', { class: 'kb-demo-status', role: 'status', text: '正在检测 WebGPU…' });
  const code = el('code', { class: 'language-wgsl', text: '正在载入着色器…' });
  const details = el('details', { class: 'kb-demo-source' }, el('summary', { text: `WGSL 源码（${kernel}.wgsl）` }), el('pre', {}, code));
  const form = el('form', { class: 'kb-demo-controls' });
  for (const f of [...spec.sizes, REPS]) {
    const input = el('input', { type: 'number', name: f.key, min: String(f.min), max: String(f.max), step: '1', value: String(f.value), required: '' });
    ui.inputs[f.key] = input;
    form.append(el('label', {}, el('span', { text: f.label }), input));
  }
  ui.button = el('button', { type: 'submit', class: 'md-button', text: '运行' });
  form.append(ui.button);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    run(ui).catch(() => {}); // 错误已显示在结果区
  });
  ui.result = el('div', { class: 'kb-demo-result', 'aria-live': 'polite' });
  body.replaceChildren(ui.status, details, form, ui.result);
  blocks.set(root, ui);

  const src = source(kernel).then(
    (text) => { code.textContent = text; },
    (e) => { code.textContent = String(e.message || e); },
  );
  const gpu = initGpu().then((state) => {
    if (state.device) setStatus(ui, `WebGPU 可用（${state.adapter}），GPU 结果将与 CPU 参考实现逐元素对照。`, 'ok');
    else setStatus(ui, MSG[state.reason] + (state.detail ? `（${state.detail}）` : ''), 'warn');
  });
  return Promise.all([src, gpu]).then(() => undefined);
}

let ready = Promise.resolve();

function scan(root = document) {
  const found = [];
  for (const node of root.querySelectorAll('.kb-demo[data-kernel]')) {
    if (blocks.has(node) || node.dataset.kbDemoSetup) continue;
    node.dataset.kbDemoSetup = '1';
    found.push(setup(node));
  }
  ready = Promise.all([ready, ...found]).then(() => undefined);
  return ready;
}

function find(id) {
  for (const [node, ui] of blocks) if (node.isConnected && ui.id === id) return ui;
  return null;
}

window.kbDemos = {
  get ready() { return ready; },
  scan,
  list: () => [...blocks.values()].filter((ui) => ui.root.isConnected).map((ui) => ({ id: ui.id, kernel: ui.kernel })),
  // options.gridX（仅供测试）：限制网格 x 方向的工作组数，以便用少量工作组覆盖二维网格的折回逻辑。
  async run(id, sizes = {}, options = {}) {
    await ready;
    const ui = find(id);
    if (!ui) throw new Error(`页面上没有演示：${id}`);
    if (options.gridX !== undefined && !(Number.isInteger(options.gridX) && options.gridX >= 1)) {
      throw new Error('gridX 应为正整数。');
    }
    return run(ui, sizes, options);
  },
};

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => scan());
else scan();
// Material for MkDocs 的“即时导航”会替换页面内容而不重新加载脚本：内容替换后重新扫描。
if (window.document$ && typeof window.document$.subscribe === 'function') window.document$.subscribe(() => scan());
