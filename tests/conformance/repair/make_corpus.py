#!/usr/bin/env python3
"""Writes corpus.jsonl: malformed model replies, each with the value it must become or null
("must not repair": the reply goes to the correction loop). The values are documents Zod judges
valid in ../shared/corpus (refund, transfer) and claims built here for claim.schema.json; each
reply is one of them written the way models slip. Run from the repository root:
    python3 tests/conformance/repair/make_corpus.py ../shared/corpus > tests/conformance/repair/corpus.jsonl
"""
import json, random, sys

rng = random.Random(25)
shared = sys.argv[1]


def valid_docs(name, count):
    docs = []
    with open(f"{shared}/{name}.jsonl") as lines, open(f"{shared}/{name}.expected") as verdicts:
        for line, verdict in zip(lines, verdicts):
            if verdict.strip() != "valid":
                continue
            doc = json.loads(line)
            text = json.dumps(doc, ensure_ascii=False)
            # Only documents a JSON reader gives back exactly (floats survive a round trip).
            if json.loads(text) == doc and "'" not in text and "\\" not in text:
                docs.append(doc)
            if len(docs) == count:
                break
    return docs


def claims(count):
    out = []
    for i in range(count):
        items = [{"sku": f"SKU-{rng.randint(100, 999)}", "quantity": rng.randint(1, 5),
                  "reason": rng.choice(["damaged", "late", "wrong_item"])}
                 for _ in range(rng.randint(1, 3))]
        out.append({
            "claim_id": f"CLM-{rng.randint(1000, 9999)}",
            "approved": rng.choice([True, False]),
            "priority": rng.choice(["low", "normal", "high"]),
            "total": rng.choice([12.5, 99.99, 250, 0.5, 1040.75]),
            "items": items,
            "tags": rng.sample(["fragile", "express", "gift", "return"], rng.randint(1, 2)),
            "contact": rng.choice([None, {"phone": "+44 20 7946 0000", "callback": True}]),
        })
    return out


def dump(doc, indent=None):
    return json.dumps(doc, ensure_ascii=False, indent=indent)


def with_member(doc, key, text):
    """The document as text with one member's value written as `text`."""
    marker = "\u0000MARK\u0000"
    copy = dict(doc)
    copy[key] = marker
    return dump(copy).replace(json.dumps(marker), text)


cases = []


def case(schema, reply, expect, policy="lossless", note=""):
    cases.append({"schema": schema, "policy": policy, "reply": reply, "expect": expect, "note": note})


PROSE_BEFORE = ["Here is the extracted data:\n", "Sure! Based on the email, the refund is:\n\n",
                "I found the following details. ", "Extracted JSON:\n"]
PROSE_AFTER = ["\n\nLet me know if anything needs changing.", "\nHope this helps!",
               " (all values come from the message)", "\n\nNote: the amount was given in the text."]


def text_slips(schema, doc):
    case(schema, "```json\n" + dump(doc, 2) + "\n```", doc, note="fenced")
    case(schema, "```\n" + dump(doc) + "\n```", doc, note="fence without a language")
    case(schema, rng.choice(PROSE_BEFORE) + dump(doc), doc, note="prose before")
    case(schema, dump(doc) + rng.choice(PROSE_AFTER), doc, note="prose after")
    case(schema, rng.choice(PROSE_BEFORE) + "```json\n" + dump(doc, 2) + "\n```" + rng.choice(PROSE_AFTER),
         doc, note="prose around a fence")
    case(schema, dump(doc)[:-1] + ",}", doc, note="trailing comma")
    pretty = dump(doc, 2).split("\n")
    pretty.insert(1, "  // values taken from the customer's message")
    case(schema, "\n".join(pretty), doc, note="line comment")
    case(schema, "/* extracted */ " + dump(doc), doc, note="block comment")
    if all(isinstance(v, (int, float, str)) for v in doc.values()):
        single = "{" + ", ".join(f"'{k}': " + (f"'{v}'" if isinstance(v, str) else json.dumps(v))
                                for k, v in doc.items()) + "}"
        case(schema, single, doc, note="single-quoted strings")
        bare = "{" + ", ".join(f"{k}: " + json.dumps(v, ensure_ascii=False) for k, v in doc.items()) + "}"
        case(schema, bare, doc, note="unquoted keys")
        case(schema, "Result:\n```json\n" + bare[:-1] + ",\n}\n```", doc, note="fence, unquoted keys, trailing comma")


def must_not(schema, doc, other):
    case(schema, dump(doc) + "\n" + dump(other), None, note="two objects")
    case(schema, "```json\n" + dump(doc) + "\n```\nor\n```json\n" + dump(other) + "\n```", None,
         note="two fenced objects")
    case(schema, dump(doc)[: len(dump(doc)) // 2], None, note="cut off")
    case(schema, "/* unclosed " + dump(doc), None, note="unclosed comment")
    case(schema, "Here it is: " + dump(doc)[:-1] + ", \"extra\": oops}", None, note="broken value in prose")


refunds = valid_docs("refund", 24)
transfers = valid_docs("transfer", 16)
claim_docs = claims(20)

for doc in refunds:
    text_slips("refund", doc)
    amount = doc["amount"]
    case("refund", with_member(doc, "amount", json.dumps(json.dumps(amount))), doc, note="amount as a string")
    case("refund", "```json\n" + with_member(doc, "amount", json.dumps(json.dumps(amount))) + "\n```", doc,
         note="fence and amount as a string")
    case("refund", with_member(doc, "currency", json.dumps(doc["currency"].lower())), doc, note="currency case")
    case("refund", with_member(doc, "amount", "NaN"), None, note="NaN")
    case("refund", with_member(doc, "amount", json.dumps(f"{amount} {doc['currency']}")), None,
         note="amount with its currency")
    case("refund", with_member(doc, "amount", json.dumps("12345678901234567890.5")), None,
         note="more digits than a double keeps")
    case("refund", with_member(doc, "currency", json.dumps("US dollars")), None, note="currency in words")
    renamed = dump(doc).replace('"orderId"', '"OrderID"')
    case("refund", renamed, None, note="key case under lossless")
    case("refund", renamed, doc, policy="lenient", note="key case under lenient")
for a, b in zip(refunds, refunds[1:]):
    must_not("refund", a, b)

for doc in transfers:
    text_slips("transfer", doc)
    case("transfer", with_member(doc, "currency", json.dumps(doc["currency"].upper())), doc, note="currency case")
    case("transfer", with_member(doc, "amount", json.dumps(json.dumps(doc["amount"]))), doc, note="amount as a string")
    case("transfer", with_member(doc, "amount", "Infinity"), None, note="Infinity")
    case("transfer", with_member(doc, "amount", "+" + json.dumps(doc["amount"])), None, note="leading plus")
    case("transfer", with_member(doc, "amount", json.dumps("1,234.50")), None, note="thousands separator")
for a, b in zip(transfers, transfers[1:]):
    must_not("transfer", a, b)

for doc in claim_docs:
    text_slips("claim", doc)
    case("claim", with_member(doc, "approved", json.dumps(json.dumps(doc["approved"]))), doc,
         note="boolean as a string")
    case("claim", with_member(doc, "approved", json.dumps(str(doc["approved"]))), None,
         note="boolean as Python writes it")
    case("claim", with_member(doc, "priority", json.dumps(doc["priority"].upper())), doc, note="enum case")
    case("claim", with_member(doc, "tags", json.dumps(doc["tags"][0])), {**doc, "tags": doc["tags"][:1]},
         note="one tag, not in an array")
    case("claim", with_member(doc, "tags", "null"), None, note="null where an array is asked")
    first = doc["items"][0]
    one_item = {**doc, "items": [first]}
    case("claim", with_member(one_item, "items", dump(first)), one_item, note="one item, not in an array")
    stringy = {**first, "quantity": str(first["quantity"])}
    case("claim", with_member(one_item, "items", dump([stringy])), one_item, note="quantity as a string")
    case("claim", with_member(one_item, "items", dump([{**first, "quantity": "2.5"}])), None,
         note="a fraction where an integer is asked")
    case("claim", with_member(one_item, "items", dump([{**first, "reason": first["reason"].title()}])), one_item,
         note="item reason case")
    trailing = dump(one_item).replace("]", ",]", 1)
    case("claim", trailing, one_item, note="trailing comma in an array")
    case("claim", dump(doc).replace("true", "True").replace("null", "None"), None,
         note="Python literals")
    if doc["contact"] is not None:
        case("claim", with_member(doc, "contact", '{"phone": "+44 20 7946 0000", "callback": "true"}'), doc,
             note="boolean as a string in a nullable object")
    case("claim", with_member(doc, "claim_id", "4821"), None, note="number for a string under lossless")
    with_ref = {**doc, "reference": "4821"}
    case("claim", dump(with_ref), with_ref, note="string or number union: already valid")
    case("claim", "[" + dump(doc) + "]", None, note="an array where an object is asked")
    case("claim", "{\"claim_id\": \"CLM-1\", \"items\": [" + dump(first) + "], \"total\": 12.5 oops}", None,
         note="broken outer value around a valid item")
    case("claim", dump(doc).replace('"total"', '"total"', 1)[:-1] + f', "total": {doc["total"]}}}', None,
         note="repeated key")

for c in cases:
    print(json.dumps(c, ensure_ascii=False))
print(f"{len(cases)} cases", file=sys.stderr)
