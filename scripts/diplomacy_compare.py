#!/usr/bin/env python3
"""Compares this project's Diplomacy adjudication with the Python `diplomacy` package.

Reads JSON lines from `cargo run --example diplomacy-phases` (a movement phase: the
units, the orders by power, and pbem's result) and adjudicates each phase with the
package, then compares the positions (units not dislodged) and the dislodged units.

    diplomacy_compare.py compare PHASES.jsonl     differences, one line each, and a summary
    diplomacy_compare.py bench PHASES.jsonl N     seconds per phase (mean of N passes)

Run through scripts/diplomacy-differential, which makes the throw-away virtualenv.
"""
import json
import sys
import time

from diplomacy import Game

POWERS = {"AUS": "AUSTRIA", "ENG": "ENGLAND", "FRA": "FRANCE", "GER": "GERMANY",
          "ITA": "ITALY", "RUS": "RUSSIA", "TUR": "TURKEY"}
BACK = {v: k for k, v in POWERS.items()}


def their_unit(text):
    """'AUS A vie' -> ('AUSTRIA', 'A VIE')"""
    p, kind, loc = text.split()
    return POWERS[p], f"{kind} {loc.upper()}"


def their_order(line):
    """'AUS A vie - tyr' -> 'A VIE - TYR' (the power prefix dropped)."""
    return " ".join(w.upper() for w in line.split()[1:])


def load(game, phase):
    game.clear_units()
    units = {p: [] for p in POWERS.values()}
    for u in phase["units"]:
        p, t = their_unit(u)
        units[p].append(t)
    for p, us in units.items():
        game.set_units(p, us, reset=True)
    for p, lines in phase["orders"].items():
        game.set_orders(POWERS[p], [their_order(l) for l in lines])


def adjudicate(phase):
    game = Game()
    load(game, phase)
    game.process()
    kept, dislodged = set(), {}
    retreats = game.get_state()["retreats"]
    for p, us in game.get_units().items():
        for u in us:
            star = u.startswith("*")
            kind, loc = u.lstrip("*").split()
            text = f"{BACK[p]} {kind} {loc.lower()}"
            if star:
                options = retreats.get(p, {}).get(u.lstrip("*"), [])
                dislodged[text] = sorted(o.lower() for o in options)
            else:
                kept.add(text)
    return kept, dislodged


def own_support_against_convoy(phase):
    """Provinces where a power supports a move by convoy into its own unit's province."""
    owner = {u.split()[2].split("/")[0]: u.split()[0] for u in phase["units"]}
    via = set()
    for lines in phase["orders"].values():
        for l in lines:
            w = l.split()
            if w[-1] == "VIA":
                via.add((w[2], w[4]))
    out = set()
    for lines in phase["orders"].values():
        for l in lines:
            w = l.split()
            if len(w) == 8 and w[3] == "S" and w[6] == "-":
                src, dst = w[5], w[7]
                if (src, dst) in via and owner.get(dst) == w[0]:
                    out.add(dst)
    return out


def classify(phase, kept, ours_kept, dislodged, ours_dis):
    """The documented kinds of difference (README, "Diplomacy: differential test")."""
    if kept == ours_kept and set(dislodged) == set(ours_dis):
        info = {d["unit"]: d for d in phase["after"]["dislodged"]}
        if all(
            set(ours_dis[u]) <= set(dislodged[u])
            and (set(dislodged[u]) == set(ours_dis[u])
                 or (info[u]["by_convoy"] and set(dislodged[u]) <= set(info[u]["neighbours"])))
            for u in ours_dis
        ):
            # A unit dislodged by a convoyed army: the package offers every neighbour,
            # occupied and contested ones too. A retreat goes only to a vacant province
            # that was not left empty by a stand-off (DATC 6.H.6, 6.H.16); after a
            # convoy only the attacker's own province is freed (DATC 6.H.11, 4.A.5).
            return "python-retreats-after-convoy"
    places = lambda units: {u.split()[2].split("/")[0] for u in units}
    changed = places(kept ^ ours_kept) | places(set(dislodged) ^ set(ours_dis))
    changed |= {u.split()[2].split("/")[0] for u in set(dislodged) ^ set(ours_dis)}
    hot = own_support_against_convoy(phase)
    if hot and changed and all(
        any(p in hot or p in adjacent_to(phase, h) for h in hot) for p in changed
    ):
        # The package counts a power's support for a convoyed attack on that power's own
        # unit. DATC 6.D.12 and 6.D.13: a power cannot help dislodge its own unit.
        return "python-own-support-against-convoyed-attack"
    return "undocumented"


def adjacent_to(phase, prov):
    """The provinces of the units whose moves touch `prov` (the attackers' origins)."""
    out = set()
    for lines in phase["orders"].values():
        for l in lines:
            w = l.split()
            if len(w) >= 5 and w[3] == "-" and w[4].split("/")[0] == prov:
                out.add(w[2].split("/")[0])
            if len(w) >= 5 and w[2].split("/")[0] == prov and w[3] == "-":
                out.add(w[4].split("/")[0])
    return out


def compare(path):
    total = differ = 0
    kinds = {}
    for line in open(path):
        phase = json.loads(line)
        total += 1
        kept, dislodged = adjudicate(phase)
        ours_kept = set(phase["after"]["units"])
        ours_dis = {d["unit"]: sorted(d["retreats"]) for d in phase["after"]["dislodged"]}
        if kept != ours_kept or dislodged != ours_dis:
            kind = classify(phase, kept, ours_kept, dislodged, ours_dis)
            kinds[kind] = kinds.get(kind, 0) + 1
            if kind == "undocumented":
                differ += 1
            print(json.dumps({
                "kind": kind,
                "game": phase["game"], "phase": phase["phase"],
                "only_pbem": sorted(ours_kept - kept), "only_python": sorted(kept - ours_kept),
                "dislodged_pbem": ours_dis, "dislodged_python": dislodged,
                "orders": phase["orders"],
            }))
    documented = sum(v for k, v in kinds.items() if k != "undocumented")
    print(f"{total} movement phases compared: {differ} undocumented differences, "
          f"{documented} documented ({', '.join(f'{k}: {v}' for k, v in sorted(kinds.items())) or 'none'})")
    return differ


def bench(path, passes):
    phases = [json.loads(l) for l in open(path)]
    start = time.perf_counter()
    for _ in range(passes):
        for phase in phases:
            game = Game()
            load(game, phase)
            game.process()
    # Game() set-up alone, to subtract.
    start2 = time.perf_counter()
    for _ in range(passes):
        for phase in phases:
            game = Game()
            load(game, phase)
    end = time.perf_counter()
    with_process = (start2 - start) / (passes * len(phases))
    setup = (end - start2) / (passes * len(phases))
    print(json.dumps({"phases": len(phases), "seconds_per_phase": with_process - setup,
                      "seconds_per_phase_with_setup": with_process}))


if __name__ == "__main__":
    if sys.argv[1] == "compare":
        sys.exit(1 if compare(sys.argv[2]) else 0)
    elif sys.argv[1] == "bench":
        bench(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 3)
