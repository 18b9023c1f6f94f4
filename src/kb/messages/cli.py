"""The catalogue's words of the command line (``kb init``, ``kb paper add``'s progress, the
``--json`` summaries' hints).  Part of :data:`kb.messages.UI` (one catalogue; split only to
keep each file small): use them through it."""

from __future__ import annotations

CLI: dict[str, str] = {
    # kb init (kb.cli.init)
    "cli.init.not_empty": "{dir}：目录不是空的（已有 {n} 项，如 {first}）。kb init 只在新目录或空目录里开始，不覆盖任何文件：请换一个目录，例如 kb init {suggest}",
    "cli.init.not_dir": "{dir}：已存在，但不是目录。请换一个目录名。",
    "cli.init.bad_topic": "--topic {topic}：主题 id 只能用小写字母、数字和 '-'，以字母或数字开头（最多 80 个字符），例如 --topic llm-serving",
    "cli.init.bad_title": "--title：标题须是一行文字，不含控制字符和 {{ }} < > 这些字符（它会出现在 YAML、Markdown 和页面上）",
    "cli.init.done": "已在 {dir} 开始一个新的知识库（主题 {topic}「{title}」，{n} 个文件）。接下来：",
    "cli.init.next": "  cd {dir}\n  kb validate --strict    # 检查数据和页面\n  kb build --strict       # 构建网站到 site/（kb preview 边改边看）",
    # kb paper add: progress and waits (kb.arxiv.client)
    "cli.fetch.start": "获取 arXiv 元数据 {ids} …",
    "cli.fetch.retry": "获取 arXiv 元数据 {ids} …（第 {attempt} 次，等待 {wait} 秒：{why}）",
    "cli.fetch.rate_limited": "速率限制",
    "cli.fetch.unavailable": "服务暂时不可用（HTTP {status}）",
    "cli.fetch.no_answer": "没有得到完整的回答",
    "cli.fetch.more": " 等 {n} 个",
}
