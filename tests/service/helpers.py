"""Small helpers the service tests share (imported as ``helpers``)."""

from __future__ import annotations

import time

from referee.jobs.validate import validate_text


def create(client, **body):
    body.setdefault("game", "caravan")
    body.setdefault("seats", ["Ann", "Bob"] if body["game"] == "caravan" else ["Aki", "Ben", "Chie", "Dai"])
    r = client.post("/v1/tables", json=body)
    assert r.status_code == 201, r.text
    doc = r.json()
    return doc["id"], {s["name"]: s["token"] for s in doc["seats"]}


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def play_out(client, table_id: str, tokens: dict, limit: int = 5000, pick=lambda legal: legal[0]) -> dict:
    """Play every human seat's first legal move until the table is finished."""
    for _ in range(limit):
        view = client.get(f"/v1/tables/{table_id}").json()
        if view["status"] == "finished":
            return view
        moved = False
        for name, token in tokens.items():
            mine = client.get(f"/v1/tables/{table_id}/view", headers=auth(token)).json()
            if mine["legal"]:
                r = client.post(f"/v1/tables/{table_id}/moves", headers=auth(token),
                                json={"move": pick(mine["legal"]), "ply": mine["ply"]})
                assert r.status_code == 200, r.text
                moved = True
                break
        if not moved:
            time.sleep(0.01)
    raise AssertionError("the table did not finish")


def record_valid(text: str) -> bool:
    reports = validate_text(text)
    return bool(reports) and all(r.valid for r in reports)
