#!/usr/bin/env python3
"""Writes the techstacks app's data (Fixtures/techstacks/*.json) and its /types/metadata.

Input: catalog.json beside this script — technology and stack names, vendors, URLs, tiers and
prose written for mockstack. This script adds what the client suites pin down (docs/servicestack.md#the-data-set: ids,
stack counts, owners, orderings) and fills the rest (dates, view counts, choices) from a fixed seed,
so running it again writes the same bytes. Run it after editing the catalog:

    python3 Scripts/techstacks/generate.py
"""
import datetime
import hashlib
import json
import os
import random
import re
import struct
import sys
import zlib

import metadata

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "..", "Fixtures", "techstacks"))
# Logos are small PNGs drawn here (write_logos), served by the app: `~/` is the app's root,
# written as an absolute URL through the URL the client used.
LOGO = "~/logos/{}.png"
LOGO_SIZE = 32
TIERS = [name for name, _ in metadata.TIERS]

# Fact 1, 2: fixed ids.
FIXED_IDS = {"ServiceStack": 1, "AngularJS": 7, "Go": 18, "Protocol Buffers": 77}
# Fact 9: the number of stacks choosing each of the top twenty, in rank order (ties ranked by id).
TOP_TWENTY = [("Redis", 35), ("MySQL", 34), ("Amazon EC2", 29), ("Memcached", 28), ("Python", 25), ("Nginx", 24),
              ("Java", 22), ("Hadoop", 21), ("PostgreSQL", 18), ("Backbone.js", 18), ("Amazon S3", 18), ("Ruby", 17),
              ("mongoDB", 17), ("HAProxy", 17), ("node.js", 15), ("Ruby on Rails", 14), ("Linux", 14), ("C#", 11),
              ("Apache", 11), ("Apache HBase", 10)]
# Fact 12: the Server tier's top three are Ruby on Rails 14, Django 9, ServiceStack 8.
PINNED_COUNTS = dict(TOP_TWENTY, **{"Django": 9, "ServiceStack": 8})
SERVER_CAP = 7       # every other Server technology ranks below ServiceStack
OTHER_CAP = 9        # every other technology ranks below the top twenty
THIRD_PARTY_POPULAR = 2  # fact 12: ThirdPartyServices has two technologies in three or more stacks
# node.js is not a Server library here, or it would outrank Ruby on Rails in that tier (fact 12).
TIER_OVERRIDES = {"node.js": "SoftwareInfrastructure"}

# Fact 10: six owners; each counts one per stack plus favourites beyond the first.
# (userName, favourite counts of the stacks they own): demisbellot 61, layoric 15, the rest below.
OWNERS = [
    ("demisbellot", [14, 6, 5, 5, 4, 4, 4, 3, 3, 3, 3, 3, 2, 2]),
    ("layoric", [4, 3, 2, 2, 1, 1, 1, 1]),
    ("harbourlights", [2, 2, 1, 1, 1, 1, 1, 1, 1, 1]),
    ("quillmoth", [2, 1, 1, 1, 1, 1, 1, 1, 1, 1]),
    ("kestrel_dev", [1, 1, 1, 1, 1, 1, 1, 1, 1]),
    ("tarnstack", [0, 1, 1, 0, 1, 1, 0, 1, 1]),
]

rng = random.Random(20150108)


def slugify(name):
    """TechStacks' slug rule: lower case, `#` → sharp, `++` → pp, other symbols → `-`."""
    text = name.lower().replace("#", "sharp").replace("++", "pp")
    text = re.sub(r"[^a-z0-9\s-]", "-", text)[:100].strip()
    text = re.sub(r"\s", "-", text)
    text = re.sub(r"-+", "-", text)
    return text.strip("-")


def iso(moment):
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")


def random_moment(start, end):
    span = int((end - start).total_seconds())
    return start + datetime.timedelta(seconds=rng.randrange(span), microseconds=rng.randrange(1_000_000))


def markdown_html(text):
    """The little Markdown the stacks' details use: paragraphs, `- ` lists, **bold**, `code`, links."""
    def inline(line):
        line = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        line = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", line)
        line = re.sub(r"`(.+?)`", r"<code>\1</code>", line)
        return re.sub(r"\[(.+?)\]\((.+?)\)", r'<a href="\2">\1</a>', line)

    html = []
    for block in [b for b in text.strip().split("\n\n") if b.strip()]:
        lines = block.strip().split("\n")
        if all(line.lstrip().startswith(("- ", "* ")) for line in lines):
            html.append("<ul>\n" + "\n".join(f"<li>{inline(line.lstrip()[2:])}</li>" for line in lines) + "\n</ul>")
        else:
            html.append("<p>" + inline(" ".join(line.strip() for line in lines)) + "</p>")
    return "\n".join(html)


def fail(message):
    sys.exit(f"generate.py: {message}")


def main():
    with open(os.path.join(HERE, "catalog.json"), encoding="utf-8") as f:
        catalog = json.load(f)
    techs = catalog["technologies"]
    stacks = catalog["stacks"]
    by_name = {t["name"]: t for t in techs}
    for t in techs:
        t["tier"] = TIER_OVERRIDES.get(t["name"], t["tier"])
    for name in list(FIXED_IDS) + list(PINNED_COUNTS) + ["Flutter"]:
        if name not in by_name:
            fail(f"catalog.json lacks {name}")
    if len(techs) > 500:
        fail("at most 500 technologies (the MaxLimit), so an unfiltered query returns every row")

    # --- ids: the fixed ones, then the top twenty in rank order (so ties rank by id), then the rest.
    order = [name for name, _ in TOP_TWENTY] + [t["name"] for t in techs]
    free = (i for i in range(1, 10_000) if i not in FIXED_IDS.values())
    ids = dict(FIXED_IDS)
    for name in order:
        if name not in ids:
            ids[name] = next(free)

    # --- how many stacks choose each technology.
    uses = {}
    for stack in stacks:
        for name in stack["uses"]:
            if name not in by_name:
                fail(f"stack {stack['name']} uses unknown technology {name}")
            uses[name] = uses.get(name, 0) + 1
    counts = {}
    third_party = sorted((t["name"] for t in techs if t["tier"] == "ThirdPartyServices" and t["name"] not in PINNED_COUNTS),
                         key=lambda n: (-uses.get(n, 0), ids[n]))
    for t in techs:
        name = t["name"]
        if name in PINNED_COUNTS:
            counts[name] = PINNED_COUNTS[name]
        elif t["tier"] == "ThirdPartyServices":
            counts[name] = max(3, min(uses.get(name, 0), OTHER_CAP)) if name in third_party[:THIRD_PARTY_POPULAR] else min(uses.get(name, 0), 2)
        else:
            counts[name] = min(uses.get(name, 0), SERVER_CAP if t["tier"] == "Server" else OTHER_CAP)
    # Every tier but ThirdPartyServices needs three technologies in three or more stacks.
    for tier in TIERS:
        if tier == "ThirdPartyServices":
            continue
        members = sorted((t["name"] for t in techs if t["tier"] == tier), key=lambda n: (-counts[n], ids[n]))
        for name in members[:3]:
            counts[name] = max(counts[name], 3)

    # --- choices: stack 1 as the catalog lists it; then each technology, most chosen first,
    # goes to the stacks that list it, then to the stacks with the fewest choices so far.
    site = stacks[0]
    if site["name"] != "TechStacks Website" or len(site["uses"]) != 10 or site["uses"][0] != "ServiceStack":
        fail("the first stack must be the TechStacks Website with 10 choices, ServiceStack first (fact 11)")
    chosen = [list(site["uses"])] + [[] for _ in stacks[1:]]
    listed = [set(stack["uses"]) for stack in stacks]
    for name in sorted(counts, key=lambda n: (-counts[n], ids[n])):
        needed = counts[name] - (1 if name in chosen[0] else 0)
        candidates = sorted(range(1, len(stacks)), key=lambda i: (name not in listed[i], len(chosen[i]), i))
        if needed > len(candidates):
            fail(f"{name} needs {needed} stacks, there are {len(candidates)}")
        for i in candidates[:needed]:
            chosen[i].append(name)

    # --- owners: stack 1 is demisbellot's; the others are dealt out from a shuffled deck.
    deck = [(owner, fav) for owner, favs in OWNERS for fav in (favs[1:] if owner == OWNERS[0][0] else favs)]
    if len(deck) != len(stacks) - 1:
        fail(f"the owners' stacks add up to {len(deck) + 1}, there are {len(stacks)} stacks")
    rng.shuffle(deck)
    ownership = [(OWNERS[0][0], OWNERS[0][1][0])] + deck
    user_ids = {owner: str(index + 1) for index, (owner, _) in enumerate(OWNERS)}

    # --- stacks: modified between 2015 and 2025; the site's own stack is the fourth most recent,
    # so Overview has to move it first; it is also the most viewed.
    start, end = datetime.datetime(2015, 1, 8, 9), datetime.datetime(2025, 10, 31, 18)
    moments = sorted((random_moment(start, end) for _ in stacks), reverse=True)
    site_moment = moments.pop(3)
    rng.shuffle(moments)
    modified = [site_moment] + moments
    stack_rows = []
    choice_id = 0
    for index, stack in enumerate(stacks):
        owner, favs = ownership[index]
        created = min(modified[index] - datetime.timedelta(days=rng.randrange(0, 400)), modified[index])
        created = max(created, start)
        slug = slugify(stack["name"])
        details = stack.get("details", "")
        choices = []
        names = chosen[index] if index == 0 else sorted(chosen[index], key=lambda n: (TIERS.index(by_name[n]["tier"]), n.lower()))
        for name in names:
            choice_id += 1
            choices.append({"id": choice_id, "technologyId": ids[name]})
        stack_rows.append({
            "id": index + 1, "name": stack["name"], "vendorName": stack["vendorName"], "description": stack["description"],
            "appUrl": stack["appUrl"], "screenshotUrl": f"https://example.org/techstacks/screenshots/{slug}.png",
            "created": iso(created), "createdBy": owner, "lastModified": iso(modified[index]), "lastModifiedBy": owner,
            "isLocked": index == 0, "ownerId": user_ids[owner], "slug": slug, "details": details,
            "detailsHtml": markdown_html(details) if details else None,
            "viewCount": 48_211 if index == 0 else rng.randrange(400, 30_000), "favCount": favs,
            "technologyChoices": choices,
        })
    for row in stack_rows:
        if row["detailsHtml"] is None:
            del row["detailsHtml"]

    # --- technologies: created in the site's early days, edited since; views follow popularity.
    tech_rows = []
    tech_start, tech_end = datetime.datetime(2014, 12, 10, 8), datetime.datetime(2016, 6, 30)
    for t in sorted(techs, key=lambda t: ids[t["name"]]):
        name = t["name"]
        created = random_moment(tech_start, tech_end)
        last_modified = random_moment(created, end)
        owner = OWNERS[rng.randrange(len(OWNERS))][0]
        editor = OWNERS[rng.randrange(len(OWNERS))][0]
        views = counts[name] * 900 + rng.randrange(50, 6_000)
        slug = slugify(name)
        tech_rows.append({
            "id": ids[name], "name": name, "vendorName": t["vendorName"], "vendorUrl": t["vendorUrl"],
            "productUrl": t["productUrl"], "logoUrl": LOGO.format(slug), "description": t["description"],
            "created": iso(created), "createdBy": owner, "lastModified": iso(last_modified), "lastModifiedBy": editor,
            "ownerId": user_ids[owner], "slug": slug, "logoApproved": name == "ServiceStack" or rng.random() < 0.85,
            "isLocked": name != "ServiceStack" and rng.random() < 0.08, "tier": t["tier"],
            "viewCount": views, "favCount": rng.randrange(0, max(1, views // 400)),
        })
    # Fact 2: by views, Google's first three are AngularJS, Go and Protocol Buffers.
    google = [row for row in tech_rows if row["vendorName"] == "Google"]
    if not 20 <= len(google) <= 29:
        fail(f"{len(google)} Google technologies; fact 2 wants 20 to 29")
    ceiling = max(row["viewCount"] for row in google if row["name"] not in ("AngularJS", "Go", "Protocol Buffers"))
    for rank, name in enumerate(["Protocol Buffers", "Go", "AngularJS"]):
        next(row for row in google if row["name"] == name)["viewCount"] = ceiling + 700 * (rank + 1)
    slugs = [row["slug"] for row in tech_rows]
    if len(set(slugs)) != len(slugs):
        fail("two technologies share a slug")

    organizations, posts = community(ids)
    for row in tech_rows:
        org = next((o for o in organizations if o.get("refId") == row["id"]), None)
        if org:
            row["organizationId"] = org["id"]

    users = [{"userName": owner, "avatarUrl": f"https://example.org/avatars/{owner}.png"} for owner, _ in OWNERS]

    write("technologies.json", tech_rows)
    write("stacks.json", stack_rows)
    write("users.json", users)
    write("organizations.json", organizations)
    write("posts.json", posts)
    write_metadata()
    write_logos([row["slug"] for row in tech_rows])
    print(f"{len(tech_rows)} technologies, {len(stack_rows)} stacks, {choice_id} choices, "
          f"{len(organizations)} organizations, {len(posts)} posts → {OUT}")


def community(ids):
    """Organizations (communities around a technology) and their posts, written for mockstack."""
    every_type = [name for name, _ in metadata.POST_TYPES]
    organizations = [
        {"id": 1, "name": "ServiceStack", "slug": "servicestack", "refId": ids["ServiceStack"], "refSource": "Technology",
         "upVotes": 412, "downVotes": 9, "membersCount": 1873, "rank": 1, "disableInvites": False, "lang": "csharp",
         "postTypes": every_type, "moderatorPostTypes": ["Announcement"],
         "labels": [{"slug": "bug", "color": "#d73a4a"}, {"slug": "feature", "color": "#0e8a16"}, {"slug": "docs", "color": "#0075ca"}],
         "categories": [{"id": 3, "name": "AutoQuery", "slug": "autoquery"}, {"id": 1, "name": "Authentication", "slug": "authentication"},
                        {"id": 2, "name": "OrmLite", "slug": "ormlite"}]},
        {"id": 2, "name": "Flutter", "slug": "flutter", "refId": ids["Flutter"], "refSource": "Technology",
         "upVotes": 188, "downVotes": 4, "membersCount": 642, "rank": 2, "disableInvites": False, "lang": "dart",
         "postTypes": every_type, "moderatorPostTypes": ["Announcement"],
         "labels": [{"slug": "showcase", "color": "#5319e7"}], "categories": [{"id": 4, "name": "Widgets", "slug": "widgets"}]},
        {"id": 3, "name": "Redis", "slug": "redis", "refId": ids["Redis"], "refSource": "Technology",
         "upVotes": 95, "downVotes": 2, "membersCount": 301, "rank": 3, "lang": "c",
         "postTypes": ["Post", "Question", "Showcase"], "moderatorPostTypes": [], "labels": [], "categories": []},
        {"id": 4, "name": "TechStacks", "slug": "techstacks", "upVotes": 37, "downVotes": 1, "membersCount": 120, "rank": 4,
         "lang": "en", "postTypes": ["Post", "Request", "Question"], "moderatorPostTypes": [], "labels": [], "categories": []},
    ]
    for org in organizations:
        org["categories"].sort(key=lambda c: c["name"])

    flutter, ss, redis = ids["Flutter"], ids["ServiceStack"], ids["Redis"]
    drafts = [
        (2, 1, "Announcement", "Flutter community hub opens on TechStacks",
         "A home for Flutter announcements, showcases and questions. Share what you ship and how you built it.", [flutter]),
        (2, 2, "Showcase", "A Flutter field-service app talking to a typed ServiceStack API",
         "We generate Dart DTOs from our service and share them between the mobile app and its tests.", [flutter, ss]),
        (2, 3, "Question", "Keeping Flutter widget tests fast with a local mock server",
         "What do you use to stand in for your backend when running integration tests on CI?", [flutter]),
        (1, 1, "Announcement", "Typed clients now generated for Swift 6",
         "Regenerate your DTOs to pick up strict concurrency friendly types.", [ss]),
        (1, 2, "Post", "Paging AutoQuery results without surprises",
         "Always pair skip and take with an explicit order so pages stay stable between requests.", [ss, ids["PostgreSQL"]]),
        (1, 4, "Question", "How do I return a custom error code from a validator?",
         "My validator fails as expected but the client only sees the default error code.", [ss]),
        (1, 5, "Request", "Add include=Total examples to the AutoQuery docs",
         "A short example of totals and aggregates in meta would save newcomers some time.", [ss]),
        (1, 3, "Showcase", "Our booking platform on ServiceStack, Redis and PostgreSQL",
         "Redis holds sessions and rate limits; PostgreSQL is the system of record.", [ss, redis, ids["PostgreSQL"]]),
        (3, 6, "Post", "Choosing eviction policies for a session cache",
         "allkeys-lru suited our session store; volatile-ttl surprised us under memory pressure.", [redis]),
        (3, 2, "Question", "Redis streams or a dedicated queue?",
         "For a few thousand events a minute, is a stream with consumer groups enough?", [redis]),
        (4, 1, "Request", "Show the stacks a technology appears in, newest first",
         "The technology page could list the stacks using it ordered by their last update.", []),
        (4, 4, "Post", "Tips for writing a useful stack description",
         "Say what the product does, then why each technology earned its place.", []),
    ]
    base = datetime.datetime(2024, 3, 4, 10)
    posts = []
    for index, (org, user, kind, title, content, tech_ids) in enumerate(drafts):
        created = base + datetime.timedelta(days=23 * index, hours=rng.randrange(0, 12), minutes=rng.randrange(60))
        up, down = rng.randrange(3, 90), rng.randrange(0, 4)
        author = OWNERS[user - 1][0]
        posts.append({
            "id": index + 1, "organizationId": org, "userId": user, "type": kind, "title": title, "slug": slugify(title),
            "content": content, "contentHtml": markdown_html(content), "technologyIds": tech_ids, "approved": True,
            "upVotes": up, "downVotes": down, "points": up - down, "views": up * 17 + 40, "favorites": up // 5,
            "wordCount": len(content.split()), "labels": [], "refUserIds": [], "refLinks": [], "muteUserIds": [],
            "created": iso(created), "createdBy": author, "modified": iso(created), "modifiedBy": author,
        })
    return organizations, posts


def write(name, rows):
    """A JSON array, one row per line: diffs stay readable."""
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write("[\n" + ",\n".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in rows) + "\n]\n")


def write_logos(slugs):
    """A 32x32 PNG per technology: a square in two tones of a colour taken from its slug."""
    folder = os.path.join(OUT, "logos")
    os.makedirs(folder, exist_ok=True)
    for slug in slugs:
        digest = hashlib.sha256(slug.encode()).digest()
        dark = bytes(48 + b % 160 for b in digest[:3])
        light = bytes(min(255, c + 72) for c in dark)
        rows = b""
        for y in range(LOGO_SIZE):
            inner = 8 <= y < LOGO_SIZE - 8
            line = b"".join(light if inner and 8 <= x < LOGO_SIZE - 8 else dark for x in range(LOGO_SIZE))
            rows += b"\x00" + line  # filter type 0 (None) per scanline
        with open(os.path.join(folder, slug + ".png"), "wb") as f:
            f.write(png(LOGO_SIZE, LOGO_SIZE, rows))


def png(width, height, scanlines):
    """An 8-bit RGB PNG of filtered scanlines (PNG specification, chunks IHDR, IDAT, IEND)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(scanlines, 9)) + chunk(b"IEND", b"")


def write_metadata():
    doc = metadata.document()
    compact = lambda value: json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    lines = ["{", f'"config":{compact(doc["config"])},', f'"namespaces":{compact(doc["namespaces"])},', '"types":[',
             ",\n".join(compact(t) for t in doc["types"]), "],", '"operations":[',
             ",\n".join(compact(o) for o in doc["operations"]), "]", "}"]
    with open(os.path.join(OUT, "metadata.json"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    main()
