#!/usr/bin/env python3
"""Prints tag counts and the longest notes of a notes.json file."""
import json
import sys
from collections import Counter


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def report(notes, top=3):
    tags = Counter(tag for note in notes for tag in note.get("tags", []))
    lines = [f"{len(notes)} notes, {len(tags)} tags"]
    for tag, count in tags.most_common():
        lines.append(f"  {tag:<12} {count}")
    lines.append("longest notes:")
    for note in sorted(notes, key=lambda n: len(n["body"]), reverse=True)[:top]:
        lines.append(f"  {note['title']} ({len(note['body'])} chars)")
    return "\n".join(lines)


if __name__ == "__main__":
    path = sys.argv[1] if len(sys.argv) > 1 else "data/notes.json"
    print(report(load(path)))
