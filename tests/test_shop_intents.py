"""The printing condition each shop's guide names for its files' output intent, stated in shops.toml."""

from __future__ import annotations

import dataclasses
import io

import pikepdf
import pytest

from generator.definitions.shops import Intent, load_shops
from generator.outputs.cardfiles import PodOptions, export_pod, other_condition
from generator.pipeline.context import ProjectContext
from generator.render.icc import OutputProfile, shipped_profile


def test_drivethrucards_names_swop_v2_and_the_image_shops_name_none(project):
    shops = load_shops(project)
    assert shops["drivethrucards"].intent == Intent("CGATS TR 001", "U.S. Web Coated (SWOP) v2")
    assert shops["thegamecrafter"].intent is None and shops["makeplayingcards"].intent is None


def test_a_shops_condition_not_shipped_is_said_and_its_own_profile_is_named_by_it(project):
    shop = load_shops(project)["drivethrucards"]
    shipped = PodOptions().shop_profile(shop)
    assert shipped == shipped_profile("coated") and shipped.identifier != "CGATS TR 001"
    said = other_condition(shop, shipped)
    assert said is not None and "U.S. Web Coated (SWOP) v2" in said and "--icc" in said
    # the shop's own profile, given with --icc (its description as Adobe names it), is named by the shop's condition
    own = OutputProfile(shipped_profile("coated").data, "U.S. Web Coated (SWOP) v2", "U.S. Web Coated (SWOP) v2", False)
    named = PodOptions(profile=own).shop_profile(shop)
    assert (named.identifier, named.condition, named.registered) == ("CGATS TR 001", "U.S. Web Coated (SWOP) v2", True)
    assert other_condition(shop, named) is None
    # another project profile keeps its own name
    other = OutputProfile(own.data, "My Press", "My Press", False)
    assert PodOptions(profile=other).shop_profile(shop).identifier == "My Press"


@pytest.mark.slow
def test_the_file_declares_the_condition_it_was_separated_for(project, definitions, tmp_path):
    deck = definitions["standard"].build(())
    deck = dataclasses.replace(deck, cards=deck.cards[:1])
    own = OutputProfile(shipped_profile("coated").data, "US Web Coated (SWOP) v2", "US Web Coated (SWOP) v2", False)
    for options, identifier, warned in (
        (PodOptions(shops=("drivethrucards",)), shipped_profile("coated").identifier, True),
        (PodOptions(shops=("drivethrucards",), profile=own), "CGATS TR 001", False),
    ):
        warnings: list[str] = []
        (pdf,) = export_pod(ProjectContext(project), deck, tmp_path / identifier.replace(" ", "-"), options, warnings=warnings)
        with pikepdf.open(io.BytesIO(pdf.read_bytes())) as doc:
            assert str(doc.Root.OutputIntents[0].OutputConditionIdentifier) == identifier
        assert any("SWOP" in w for w in warnings) == warned
