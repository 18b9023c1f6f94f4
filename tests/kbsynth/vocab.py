"""Words, names and section trees the synthetic briefs and papers are made of."""

from __future__ import annotations

import datetime as dt

# (id, number, title, title_en, children); an id starting with "*" is a section
# opened during the year (``introduced_by`` a brief).
# a section: (id, number, title, title_en, children)
TreeNode = tuple[str, str | None, str, str, list["TreeNode"]]

TREES: dict[str, list[TreeNode]] = {
    "inference": [  # the ids of data/topics/inference.yaml: docs/inference.md calls section() with them
        ("head", None, "头部 · 要闻", "Headline items", []),
        (
            "s1",
            "1",
            "推理系统",
            "Inference systems",
            [
                (
                    "s1-1-engines",
                    "1.(1)",
                    "推理引擎",
                    "Inference engines and kernels",
                    [
                        ("s1-1-spec-decoding", None, "Speculative Decoding", "Speculative decoding", []),
                        ("s1-1-local-edge", None, "本地 / 边缘推理", "Local and edge inference", []),
                        ("s1-1-engine-config", None, "引擎配置与选型", "Engine configuration and selection", []),
                    ],
                ),
                ("s1-2-scheduling", "1.(2)", "推理调度", "Scheduling and serving", []),
                (
                    "s1-3-kv-cache",
                    "1.(3)",
                    "KV Cache",
                    "KV cache",
                    [
                        ("s1-3-eviction", None, "驱逐（Eviction）", "Eviction", []),
                        ("s1-3-compression", None, "压缩（Compression）", "Compression", []),
                        ("s1-3-hybrid-memory", None, "混合内存（Hybrid Memory）", "Hybrid memory", []),
                        ("s1-3-novel-attention", None, "新型注意力（Novel Attention）", "Novel attention", []),
                        ("s1-3-combination", None, "组合路线（Combination）", "Combinations", []),
                        (
                            "*s1-3-vector-storage",
                            None,
                            "向量存储引擎化（Vector Storage）",
                            "KV cache as a vector store",
                            [],
                        ),
                    ],
                ),
            ],
        ),
    ],
    "rag": [
        ("head", None, "头部 · 要闻", "Headline items", []),
        (
            "s1",
            "1",
            "检索",
            "Retrieval",
            [
                ("s1-1-dense", "1.(1)", "稠密检索", "Dense retrieval", []),
                ("s1-2-hybrid", "1.(2)", "混合检索与重排", "Hybrid retrieval and reranking", []),
                ("*s1-3-graph", "1.(3)", "GraphRAG", "Graph-based RAG", []),
            ],
        ),
        (
            "s2",
            "2",
            "生成",
            "Generation",
            [
                ("s2-1-long-context", "2.(1)", "长上下文 vs RAG", "Long context versus RAG", []),
                ("s2-2-citation", "2.(2)", "引用与可信度", "Citation and faithfulness", []),
            ],
        ),
        ("s3", "3", "评测", "Evaluation", [("s3-1-benchmarks", "3.(1)", "基准", "Benchmarks", [])]),
    ],
    "agent": [
        ("head", None, "头部 · 要闻", "Headline items", []),
        (
            "s1",
            "1",
            "规划与工具",
            "Planning and tools",
            [
                ("s1-1-tool-use", "1.(1)", "工具调用", "Tool use", []),
                ("s1-2-memory", "1.(2)", "记忆", "Memory", []),
                ("*s1-3-harness", "1.(3)", "Harness 工程", "Agent harnesses", []),
            ],
        ),
        (
            "s2",
            "2",
            "多智能体",
            "Multi-agent systems",
            [("s2-1-protocols", "2.(1)", "协议（MCP/A2A）", "Protocols", [])],
        ),
        (
            "s3",
            "3",
            "评测与安全",
            "Evaluation and safety",
            [("s3-1-benchmarks", "3.(1)", "基准", "Benchmarks", []), ("s3-2-safety", "3.(2)", "安全", "Safety", [])],
        ),
    ],
}
TOPIC_TITLES = {
    "inference": ("LLM 推理", "LLM inference"),
    "rag": ("检索增强生成", "Retrieval-augmented generation"),
    "agent": ("智能体", "LLM agents"),
    # the other topics of the team the site is made for (scripts/team_project.py)
    "llm-infra": ("LLM 基础设施", "LLM infrastructure"),
    "llm-application": ("LLM 应用", "LLM applications"),
    "evaluation": ("评测", "Evaluation"),
    "risk": ("风险与安全", "Risk and safety"),
    "ai-industry": ("AI 产业", "AI industry"),
    "multimodal": ("多模态", "Multimodal models"),
    "database": ("数据库", "Databases"),
}

PRE = [
    "Flash",
    "Spec",
    "Tile",
    "Paged",
    "Radix",
    "Stream",
    "Token",
    "Retro",
    "Hydra",
    "Quant",
    "Sparse",
    "Lumen",
    "Orca",
    "Swift",
    "Vortex",
    "Nimbus",
    "Kernel",
    "Route",
    "Prism",
    "Echo",
    "Helix",
    "Mosaic",
    "Relay",
    "Atlas",
    "Cinder",
    "Delta",
    "Ember",
    "Fjord",
    "Garnet",
    "Harbor",
    "Iris",
    "Jade",
    "Kite",
    "Lattice",
    "Meridian",
    "Nova",
]
SUF = [
    "Infer",
    "Serve",
    "KV",
    "Attn",
    "Decode",
    "LLM",
    "Cache",
    "Flow",
    "Weave",
    "Scale",
    "Gate",
    "Fuse",
    "Mem",
    "Prefill",
    "Route",
    "RAG",
    "Agent",
    "Bench",
    "Spec",
    "Shard",
    "Pipe",
    "Batch",
    "Quant",
    "Retriever",
]
EN_ADJ = [
    "Latency-Budget-Aware",
    "Input-Adaptive",
    "Wave-Indexed",
    "Token-Level",
    "Operator-Level",
    "SLO-Aware",
    "Disaggregated",
    "Training-Free",
    "Hierarchical",
    "Structure-Aware",
    "Elastic",
    "Cache-Efficient",
]
EN_NOUN = [
    "Scheduling",
    "Sparse Prefilling",
    "Speculative Decoding",
    "KV Cache Management",
    "Co-Serving",
    "Retrieval",
    "Tool Routing",
    "Memory Compression",
    "Weight Quantization",
    "Request Batching",
]
EN_GOAL = [
    "Long-Context LLM Inference",
    "SLO-Bound LLM Serving",
    "Reasoning Models",
    "Multi-Tenant GPU Clusters",
    "Edge Devices",
    "Retrieval-Augmented Generation",
    "Agentic Workloads",
    "Mixture-of-Experts Models",
]
METHOD = [
    "把 KV Cache 当作可检索的向量集合",
    "按 token 粒度做 prefill/decode co-serving",
    "用延迟预算统一协调调度与缓存",
    "以算子为单位做亚秒级弹性伸缩",
    "partial-CoT 作草稿、完整预算作验证的自投机解码",
    "分层放置 KV（GPU HBM → 本地 CPU → 远程 CPU RDMA → 3FS）",
    "输入自适应的稀疏 prefill 路由",
    "FP8/INT4 混合精度的权重量化",
    "前缀感知的请求路由与 RadixAttention 复用",
    "检索与 decode 重叠的流水线",
    "按质量层级给 head 动态分配稀疏模式",
    "把工具调用结果缓存成可复用的 KV 片段",
]
TAIL = [
    "不改模型权重",
    "代码已开源",
    "仍是 arXiv 预印本",
    "只测了 dense 模型",
    "需要实测验证",
    "与 PagedAttention 可以互补",
    "与既有路线构成直接竞争",
    "生产环境已上线",
    "复现要自己做工程",
    "对长上下文负载收益最大",
    "在异构集群上的泛化有待验证",
]
METRIC = [
    "TTFT P95 延迟",
    "端到端延迟",
    "好吞吐（goodput）",
    "GPU 显存占用",
    "SLO 违规率",
    "投机接受率",
    "每 token 成本",
    "模型加载时间",
    "缓存命中率",
    "召回率@10",
    "任务成功率",
]
HW = ["H100", "H200", "A800", "B200", "MI300X", "L40S", "M4 GPU", "Ascend 910B", "TPU v5e"]
MODEL = [
    "Llama-3.1-70B",
    "Qwen3.5-27B-A3B",
    "DeepSeek-V4-Flash",
    "Gemma-4-E4B",
    "Mixtral-8x22B",
    "Kimi-K3",
    "Qwen3.5-4B",
    "GLM-5",
]
ENGINE = ["vLLM", "SGLang", "TRT-LLM", "llama.cpp", "LMCache", "Ollama", "MLC-LLM", "TGI"]
WHO = ["jay", "tom", "flyp", "spark", "stephen"]
TAGS = [
    "自投机解码",
    "P/D 分离量化数据",
    "SLO 调度",
    "算子级弹性",
    "长上下文稀疏 Prefill",
    "wave index",
    "生产数据",
    "KV 分层放置",
    "免训练",
    "量化",
    "MoE",
    "边缘推理",
    "paper_card 入库",
    "NSDI 2026",
    "MLSys 2026",
    "VLDB 2026",
]
VENUES = [
    "MLSys 2026",
    "VLDB 2026",
    "NSDI 2026",
    "OSDI 2026",
    "ASPLOS 2026",
    "EuroSys 2026",
    "ICML 2026",
    "NeurIPS 2025",
    "ICLR 2026",
    "ACL 2026",
    "ICPP 2026",
    "SIGMOD 2026",
]
AFFIL = [
    "微软研究院",
    "清华大学",
    "上海交通大学",
    "北京大学",
    "阿里巴巴",
    "字节跳动",
    "Meta",
    "Google DeepMind",
    "UC Berkeley",
    "CMU",
    "Stanford",
    "NVIDIA",
    "Dell Technologies",
    "华为",
    "中国科技大学",
    "ETH Zürich",
    "KAIST",
]
FIRST = ["Wei", "Yuxuan", "Ravi", "Hao", "Lena", "Jun", "Sofia", "Min", "Arjun", "Chen", "Tomás", "Yuki", "Omar"]
LAST = ["Zhang", "Li", "Valluri", "Wang", "Müller", "Liu", "García", "Park", "Sharma", "Chen", "Ito", "Haddad"]
OTHER_CATS = ["llm-infra", "multimodal", "evaluation", "database", "risk", "agent", "rag"]
OLD_IDS = [
    "cs/0112017",
    "hep-th/9901001",
    "math.GT/0309136",
    "cond-mat/0102536",
    "cs/0207021",
    "physics/0402096",
    "1409.0473",
    "1412.6980",
    "1308.0850",
    "1211.5063",
]  # old style, then 4-digit new style (2007-2014)
TZ = dt.timezone(dt.timedelta(hours=8))  # Asia/Shanghai (CST)
LEVELS = ["very-high", "high", "medium", "medium-low", "low"]
