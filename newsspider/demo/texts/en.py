"""English edition of the demo site: The Harbor Ledger, a city paper in invented Port Alder."""

from __future__ import annotations

from newsspider.demo.texts import EditionText, SectionText

CITY = SectionText(
    slug="city",
    name="City",
    stories=(
        (
            "Night buses return to the harbor district after a two-year pause",
            "Three night routes linking the ferry terminal with the northern estates will run "
            "again from Monday, the transit authority confirmed on Thursday.",
        ),
        (
            "Council votes to turn the old rope works into a public library",
            "After four hours of debate, councillors approved the conversion of the derelict "
            "rope works on Tanner Street by nine votes to four.",
        ),
        (
            "Residents of Gull Terrace fight plan to fell forty plane trees",
            "A petition against the removal of the trees, planted in 1912, has gathered more "
            "than six thousand signatures in less than a week.",
        ),
        (
            "Water main burst floods the lower market for the second time this winter",
            "Traders in the lower market spent Tuesday morning sweeping water out of their "
            "stalls after a cast-iron main gave way beneath Chandler Row.",
        ),
        (
            "Port Alder's first protected cycle lane opens along the river embankment",
            "The 2.4-kilometre lane, separated from traffic by a low granite kerb, was opened "
            "by the mayor on a cold but bright Saturday morning.",
        ),
    ),
    pool=(
        "Officials said the decision followed months of consultation in which more than two "
        "thousand residents answered an online survey and several hundred attended public "
        "meetings in church halls and school gymnasiums across the district.",
        "Not everyone is convinced. Edwin Marsh, who has run a hardware shop on the corner of "
        "Tanner Street for thirty-one years, said the city had a habit of announcing grand "
        "plans and then quietly shelving them when the money ran short.",
        "The cost of the work is estimated at 3.8 million pounds, of which roughly a third will "
        "come from a regional infrastructure fund. The remainder is to be borrowed over twenty "
        "years, a plan the opposition group on the council described as reckless.",
        "Engineers from the city's works department say the Victorian pipes and drains under "
        "the old town are among the oldest still in service anywhere in the country, and that "
        "patching them one failure at a time has become more expensive than replacing them.",
        "A spokeswoman for the council said contractors would work at night wherever possible "
        "to keep disruption to a minimum, and that diversions would be signposted at least a "
        "fortnight before any road is closed.",
        "Local historians point out that the harbor district was once the busiest part of the "
        "city, with three shifts of dockers crossing it every day. Its decline after the "
        "container port moved downriver left whole streets empty for a generation.",
        "Younger residents, many of whom moved into converted warehouses over the past decade, "
        'have generally welcomed the changes. "It finally feels like the city remembers that '
        'people live here and not only work here," said one.',
        "The plan will be reviewed after twelve months, when the council has promised to "
        "publish figures on use, complaints and cost, and to hold a further public meeting "
        "before deciding whether to extend it to other neighbourhoods.",
    ),
)

SCIENCE = SectionText(
    slug="science",
    name="Science",
    stories=(
        (
            "Seagrass meadows in the estuary are recovering faster than expected",
            "A five-year survey by the marine station at Kell Point found that seagrass now "
            "covers almost twice the area it did when the first maps were drawn in 2021.",
        ),
        (
            "University team builds a cheap sensor that listens for failing bridges",
            "The device, about the size of a matchbox, records vibrations in steel girders and "
            "can flag the early signs of fatigue cracking, its designers say.",
        ),
        (
            "Amateur astronomers in Port Alder spot a rare double comet",
            "Two members of the Alder Astronomical Society photographed the pair of faint "
            "comets from a field outside Brackley on a clear night in late February.",
        ),
        (
            "Study finds city foxes have learned to cross roads at traffic lights",
            "Researchers who fitted thirty urban foxes with GPS collars noticed that the "
            "animals favoured signal-controlled crossings late at night.",
        ),
        (
            "Tide gauge records dating back to 1850 are being digitised by volunteers",
            "Handwritten ledgers kept by harbor masters for more than a century and a half are "
            "being typed up by some four hundred volunteers working from home.",
        ),
    ),
    pool=(
        "The findings, published in a peer-reviewed journal this month, are based on data "
        "collected over several seasons, which the authors say makes them more reliable than "
        "earlier studies that looked at a single summer.",
        '"We were honestly surprised," said Dr. Helena Varga, who led the work. "We expected '
        "a modest change at best. What we saw instead was a clear trend that held up no matter "
        'how we sliced the numbers."',
        "Other scientists were more cautious. A researcher at a university in the north, who "
        "was not involved in the study, said the results were promising but that a longer "
        "record would be needed before drawing firm conclusions.",
        "The project cost a fraction of what similar studies usually do, largely because much "
        "of the equipment was built in the department's own workshop from off-the-shelf parts "
        "and because students did most of the fieldwork.",
        "Part of the data was gathered by members of the public, who uploaded photographs and "
        "measurements through a smartphone app. The team checked a sample of the submissions "
        "by hand and found the error rate to be lower than they had feared.",
        "The next stage of the research will extend the survey along the coast and, funding "
        "permitting, repeat the measurements every year so that changes can be tracked as they "
        "happen rather than reconstructed after the fact.",
        "The raw data and the software used to analyse it have been made freely available, so "
        "that other groups can check the calculations or apply the same method elsewhere.",
        "Historic records kept at the city archive helped the team place their measurements in "
        "a longer context, although the older notebooks use units and place names that had to "
        "be painstakingly translated into modern terms.",
    ),
)

BUSINESS = SectionText(
    slug="business",
    name="Business",
    stories=(
        (
            "Family-owned shipyard wins its largest order in half a century",
            "Brannock & Sons will build six electric harbor tugs for a Scandinavian operator, "
            "securing work for its two hundred employees until at least 2029.",
        ),
        (
            "Independent bookshops report their best winter in a decade",
            "Sales at the city's eleven independent bookshops rose by nearly a fifth over the "
            "winter months, according to figures gathered by their trade association.",
        ),
        (
            "Rents for small shop units fall as landlords struggle to fill the high street",
            "Asking rents for units under a hundred square metres have dropped by about twelve "
            "per cent in a year, a survey by a local property firm shows.",
        ),
        (
            "Port Alder bakery chain doubles its staff after a supermarket deal",
            "Hartley's, which opened its first shop in a converted garage in 2016, will supply "
            "bread to forty supermarket branches across the region from April.",
        ),
        (
            "Fish market moves to a four-day week as catches shrink",
            "The wholesale fish market on Quay Street will no longer open on Fridays, its "
            "operators said, blaming smaller catches and rising fuel costs for the fleet.",
        ),
    ),
    pool=(
        "The company declined to disclose the value of the contract, but people familiar with "
        "the negotiations put it in the tens of millions, making it one of the largest private "
        "investments in the city since the closure of the old container terminal.",
        "Managers say the biggest obstacle to growth is no longer demand but finding enough "
        "skilled workers. Apprenticeships have been expanded, and the firm now recruits "
        "directly from the technical college on Mill Lane.",
        "Economists at the regional chamber of commerce said the figures fitted a broader "
        "pattern in which small, specialised businesses had proved more resilient than large "
        "chains, which tend to cut back quickly when consumer spending slows.",
        "Energy prices remain the main worry. Several owners said their bills had more than "
        "doubled in two years and that they had postponed hiring or investment until they had "
        "a clearer idea of what the next winter would cost.",
        "The owners credit loyal customers and a willingness to try new things, from evening "
        "events and a delivery service run by bicycle to a small café that now brings in "
        "almost a quarter of the takings.",
        "Trade unions welcomed the news but said they would be watching closely to make sure "
        "that new jobs came with proper contracts rather than the zero-hours arrangements that "
        "have become common in the sector.",
        "Figures from the city's business register show that the number of new companies "
        "registered in Port Alder rose for the third year running, although many of them are "
        "one-person consultancies run from spare bedrooms.",
        "Banks have become more willing to lend to small firms after a difficult few years, "
        "the survey found, but interest rates mean that many owners prefer to grow slowly from "
        "their own profits rather than take on debt.",
    ),
)

EDITION = EditionText(
    lang="en",
    site_name="The Harbor Ledger",
    utc_offset="+00:00",
    authors=("Maya Lindqvist", "Tom Okafor", "Priya Raman", "Daniel Reyes", "Ruth Abernathy"),
    sections=(CITY, SCIENCE, BUSINESS),
    comments=(
        "I have lived here for forty years and I will believe it when I see it. They promised "
        "the same thing in 2009.",
        "Good news at last. Whoever pushed this through deserves a pint.",
        "Does anyone know whether the changes apply on weekends as well? The article does not say.",
        "Typical. Money for this but nothing for the potholes on Mercer Road.",
        "Great reporting as always, thank you for following this story so closely.",
    ),
    labels={
        "home": "Home",
        "edition": "English",
        "most_read": "Most read",
        "related": "Related stories",
        "comments": "Comments",
        "write_comment": "Join the discussion",
        "more": "More from",
        "next": "Next page",
        "prev": "Previous page",
        "newsletter": "The morning briefing",
        "newsletter_text": "Get the day's most important stories in your inbox before 7am.",
        "subscribe": "Subscribe",
        "share": "Share this story",
        "about": "About us",
        "contact": "Contact",
        "privacy": "Privacy policy",
        "login": "Sign in",
        "search": "Search",
        "by": "By",
        "published": "Published",
        "updated": "Updated",
        "top_stories": "Top stories",
        "rights": "All rights reserved.",
        "tag": "Topics",
        "photo": "Photo",
    },
    thin=(
        "Live: fire at the harbor warehouses",
        "This live page has ended. Follow our continuing coverage on the City page.",
    ),
)
