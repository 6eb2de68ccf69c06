// English and Arabic texts of the web table. Arabic lays the page out right to left.
// The Arabic contract names are the ones Levantine players say at the table.

const STRINGS = {
  en: {
    "nav.new": "New table", "nav.history": "History", "nav.replay": "Replay",
    "title.home": "opentrix — Trix, the game of kingdoms", "title.page": "{page} — opentrix",
    "title.table": "Table {code} — opentrix", "title.yourturn": "▶ Your turn · table {code} — opentrix",
    "lang.other": "عربي",
    "home.title": "Trix, the game of kingdoms",
    "home.tagline": "Play against bots at once, or invite three friends to your table.",
    "home.create": "Start a table", "home.join": "Join a table",
    "home.name": "Your name", "home.rules": "Rules", "home.doubling": "Doubling (K♥ and queens)",
    "home.partnership": "Partnership (seats across are a team)", "home.complex": "Trix Complex: each kingdom is Complex and Trix (two deals a kingdom)",
    "home.hints": "Hints for everyone, friends too (a table for learning)",
    "home.kingdoms": "Length", "home.kingdoms.4": "Full match (four kingdoms)", "home.kingdoms.1": "One kingdom",
    "home.timer": "Move timer", "home.timer.0": "No timer", "home.seconds": "{n} seconds",
    "home.bots": "Bots for empty seats", "home.playbots": "Play now against bots", "home.invite": "Create and invite friends",
    "home.code": "Table code", "home.joinbtn": "Join",
    "home.default": "as the preset says",
    "home.resume.title": "Your table in play", "home.resume": "Back to your table",
    "home.resume.playing": "Table {code}: the match is under way.", "home.resume.lobby": "Table {code}: waiting in the lobby.",
    "level.easy": "Easy", "level.medium": "Medium", "level.hard": "Hard", "level.random": "Random",
    "level.basic": "Basic", "level.strong": "Strong",
    "preset.classic": "Classic", "preset.wikipedia": "Common (Wikipedia)", "preset.denexa": "Denexa", "preset.online": "Online apps", "preset.complex": "Trix Complex",
    "home.options": "Table options (both buttons use them)", "lobby.title": "Table {code}", "lobby.invite": "Send this link to your friends:", "lobby.copy": "Copy link",
    "table.points.title": "Points this deal so far", "lobby.share": "Share", "lobby.local": "This link works only on this computer. For friends on your network, start the server with opentrix serve --host 0.0.0.0.",
    "lobby.copied": "Link copied", "lobby.open": "If nobody takes it, a bot plays it ({level})",
    "lobby.take": "Take this seat", "lobby.start": "Start the match", "lobby.waiting": "Waiting for the host to start…",
    "lobby.nowhost": "The host left the table: you are the host now and can start the match.",
    "lobby.hostmoved": "You were away, so {name} is the host now and starts the match.",
    "lobby.free": "Free seat", "lobby.free.label": "Free {name}'s seat",
    "lobby.unseated": "The host gave your seat back to the table. You can watch, or take an open seat.",
    "lobby.you": "you", "lobby.host": "host", "list.sep": ", ", "list.and": " & ", "lobby.watch": "You are watching. Take an open seat to play.",
    "lobby.seat": "Seat {n}", "lobby.partner": "partners with seat {n}", "lobby.yourname": "Your name", "lobby.needname": "Type your name to take a seat.", "home.host": "Host",
    "seat.bot": "{name} ({level})", "seat.open": "Open seat", "seat.away": "a bot plays for now", "seat.offline": "disconnected",
    "seat.standin": "disconnected · a bot plays in {n} s", "seat.standin.short": "a bot plays in {n} s", "table.standin": "A bot plays for {name} in {n} s",
    "table.code": "Table", "table.king": "King: {name}", "table.contract": "Contract", "table.choosing": "{name} is choosing the contract", "table.choosing.you": "You are choosing the contract",
    "table.deal": "Deal {n}", "table.kingdom": "Kingdom {n} of {of}", "table.kingdom.extra": "Kingdom {n}, the tiebreak", "table.tiebreak": "Tiebreak deal",
    "table.scores": "Scores", "table.lasttrick": "Last trick", "table.close": "Close", "table.spectators": "{n} watching",
    "table.turn.you": "Your turn", "table.turn.other": "{name} to play",
    "table.asked.double.you": "Your answer: double?", "table.asked.double.other": "{name} is asked about doubling",
    "table.asked.claim.you": "Your answer: a redeal?", "table.asked.claim.other": "{name} is asked about a redeal",
    "table.asked.claim.none": "Redeal question: your hand has nothing to claim", "table.tricks": "{n} tricks", "table.tricks.one": "1 trick",
    "table.pass": "Pass", "table.out": "out #{n}", "table.cardsleft": "{n} cards", "table.cardsleft.one": "1 card", "table.waiting": "Waiting…",
    "why.follow": "You must follow suit: play a {suit}.", "why.kinghearts": "You cannot follow suit, so you must discard K♥.",
    "why.hearts": "You may not lead a heart while you hold another suit.",
    "why.place": "{card} does not fit the layouts yet. You can place {cards}.", "why.noplace": "None of your cards fits the layouts: pass.",
    "table.trix.place": "Your turn: place a jack, or the card next to an end of its row",
    "table.reconnecting": "Connection lost — reconnecting…", "table.away": "A bot is playing for you.", "table.back": "Take my seat back",
    "table.chat": "Chat", "chat.title": "Table chat", "chat.send": "Send", "chat.placeholder": "Write to the table",
    "chat.watching": "You are watching: only the players write here.", "chat.empty": "No messages yet.",
    "chat.seatfirst": "Take a seat to write here.",
    "chat.mutes": "Hide messages from:", "chat.mute.label": "Hide the messages of {name}", "chat.muted": "{name} (hidden: {n})",
    "chat.unread": "Chat ({n} new)", "chat.toast": "{name}: {text}",
    "chat.toofast": "Too fast: at most 5 messages in 10 seconds. Your message is still in the box.",
    "table.hint": "Hint", "hint.title": "What the hard bot would do in your place (against bots, or where the host allowed hints)",
    "hint.says": "Hint: {what}", "hint.play": "play {card}", "hint.contract": "name {contract}", "hint.double": "double {cards}",
    "hint.nodouble": "do not double", "hint.pass": "pass", "hint.claim": "claim a redeal", "hint.noclaim": "do not claim a redeal",
    "leave.title": "Leave this match?", "leave.sub": "Your seat stays yours: a bot plays it while you are away, and the front page brings you back to it.",
    "leave.stay": "Stay at the table", "leave.go": "Leave",
    "table.watching": "You are watching this table. (Have a seat at it? Open the table in the browser you joined from.)",
    "table.notsent": "Not connected, so your move was not sent. Reconnecting…",
    "table.stale": "Too late: that move was for a turn that has passed.",
    "seed.chip": "Seeded deals (seed {seed})", "seed.why": "The host chose the seed: the deals can be known in advance.",
    "dlg.nextin": "The next deal starts in {n} s.", "dlg.lastdeal": "Last deal",
    "tiebreak.extra_koh_deal": "Tied for the lead: one more King of Hearts deal decides the match.",
    "tiebreak.extra_kingdom": "Tied for the lead: a further kingdom decides the match.",
    "rules.doubling": "doubling", "rules.nodoubling": "no doubling", "rules.partnership": "partnership", "rules.individual": "each for himself", "rules.hints": "hints allowed",
    "rules.kingdoms": "{n} kingdoms", "rules.kingdoms.one": "one kingdom", "table.invite": "Watch link", "table.invite.title": "Copy a link to this table: whoever opens it watches the match", "table.invite.copied": "Link copied: whoever opens it watches the match",
    "table.timeout": "{name} ran out of time; a bot plays for now.", "table.timeout.you": "You ran out of time; a bot plays for now.",
    "table.winner": "{name} takes the trick", "table.winner.you": "You take the trick", "table.nolast": "No trick has been taken yet.",
    "table.doubledby": "doubled by {name}",
    "table.declined": "held {what}, no double", "table.declined.queen": "a queen", "table.declined.either": "{card} or a queen",
    "table.declined.title": "Only a holder is asked to double: asked, this player did not double.",
    "dlg.contract": "Choose the contract", "dlg.contract.sub": "You are the king. Pick one of the contracts not yet played in your kingdom.",
    "dlg.double": "Double?", "dlg.double.sub": "Doubling shows the card to everyone: if another player takes it, he pays double and you gain its value.",
    "dlg.double.sub.team": "Doubling shows the card to everyone: if an opponent takes it, he pays double and you gain its value; if your partner takes it, he pays double and nobody gains.",
    "dlg.double.card": "Double {card}", "dlg.nodouble": "No double",
    "dlg.claim": "Claim a redeal?", "dlg.claim.sub": "You may throw this deal in: nobody scores, and the king deals again and names a contract again.",
    "dlg.claim.yes": "Claim a redeal", "dlg.claim.no": "Play on",
    "claim.kh.one": "Your only heart is {card}.", "claim.kh.two": "Your only hearts are {a} and {b}.",
    "claim.twos.four": "You hold all four 2s.", "claim.twos.three": "You hold three 2s and {card}, the 3 of the fourth suit.",
    "dlg.dealover": "End of deal {n}", "dlg.thrownin": "{name} threw the deal in; it is dealt again.", "dlg.thrownin.you": "You threw the deal in; it is dealt again.",
    "dlg.next": "Next deal", "dlg.readywait": "Waiting for the others… ({n} ready)",
    "dlg.took": "Took", "dlg.finished": "Finished", "dlg.deal": "Deal", "dlg.total": "Total", "dlg.player": "Player",
    "dlg.matchover": "Match over", "dlg.won": "{names} won!", "dlg.won.team": "{names} won!", "dlg.won.you": "You won!", "dlg.shared": "Shared win: {names}",
    "dlg.download": "Download record", "dlg.replay": "Watch the replay", "dlg.newtable": "New table",
    "dlg.rematch": "Rematch", "dlg.rematch.wait": "Setting up the rematch…", "dlg.rematch.asked": "{name} asked for a rematch.",
    "dlg.rematch.join": "Join the rematch", "dlg.rematch.watch": "Watch the rematch",
    "dlg.rematch.offline": "Not connected, so the rematch was not asked for. Reconnecting…",
    "took.tricks": "{n} tricks", "took.tricks.one": "1 trick", "took.nothing": "nothing", "took.place": "place {n}",
    "home.notatable": "That is not a table's link: paste the invite link (/t/…) or the table's code", "table.none": "no table '{code}'", "table.retry": "Try again", "team.a": "Team {a} & {b}", "dlg.team": "Team", "scores.thrownin": "thrown in", "home.player": "Player",
    "history.title": "Finished matches", "history.older": "Older matches", "history.empty": "No finished match yet. Play one!", "history.when": "Finished",
    "history.players": "Players", "history.totals": "Totals", "history.rules": "Rules",
    "replay.title": "Replay", "replay.upload": "Open an opentrix-record/1 file", "replay.prevdeal": "Previous deal",
    "replay.nextdeal": "Next deal", "replay.prev": "Back one card", "replay.next": "Forward one card",
    "replay.start": "Start of deal", "replay.end": "End of deal", "replay.step": "Play {i} of {n}", "replay.of": "Deal {i} of {n}",
    "replay.notfound": "No finished match with that code.", "replay.bad": "That file cannot be shown: {why}", "replay.pick": "Pick a finished match on the History page, or open a record file.",
    "a11y.hand": "Your hand", "a11y.trick": "Cards on the table", "a11y.layouts": "Trix layouts",
    "a11y.layout": "{suit}: {low} to {high}", "a11y.layout.empty": "{suit}: empty", "a11y.king": "king",
    "a11y.taken": "Penalty cards taken", "a11y.doubled": "Doubled cards",
    "a11y.botseat": "{label}: {name}",
    "card.name": "{rank} of {suit}",
    "rank.A": "Ace", "rank.K": "King", "rank.Q": "Queen", "rank.J": "Jack",
    "suit.S": "spades", "suit.H": "hearts", "suit.D": "diamonds", "suit.C": "clubs",
    "table.rules": "Rules", "rules.title": "How to play",
    "rules.intro": "A match is {n} kingdoms. In each, one player is king: before each deal of his kingdom he names a contract he has not named yet in it.",
    "rules.intro.one": "A match is one kingdom, with one king: before each of its deals he names a contract he has not named yet.",
    "rules.firstking": "The first king is the player dealt the {card} in the first deal. The king always opens: he leads the first trick, and in Trix the first turn is his (a jack, or a pass if he has none). Play goes counter-clockwise: the next player is on your right.",
    "rules.againstplay": "When a kingdom is over it passes against the direction of play: the player who plays just before the king becomes the next king.",
    "rules.tricks": "In the trick contracts, follow the suit led if you can; the highest card of that suit takes the trick and leads the next.",
    "goal.king_of_hearts": "do not take the K♥: it costs {k}", "goal.queens": "each queen you take costs {q}",
    "goal.diamonds": "each ♦ you take costs {d}", "goal.ltoosh": "each trick you take costs {t}",
    "goal.trix": "the jacks start four rows; on your turn place a jack or the card next to an end of its suit's row, else pass. First out scores {a}, then {b}, {c} and {d}",
    "goal.complex": "each trick costs {t}, plus {k} for the K♥, {q} a queen and {d} a ♦ in it",
    "rules.heartsban": "In King of Hearts nobody may lead a heart while holding another suit.",
    "rules.kingdiscard": "In King of Hearts, a player who cannot follow suit and holds the K♥ must play it.",
    "rules.kingdiscard.complex": "In Complex, a player who cannot follow suit and holds the K♥ must play it.",
    "rules.earlyend": "A trick contract stops as soon as its last penalty card is taken (the K♥, the 13th diamond or the 4th queen); Ltoosh always plays all 13 tricks.",
    "rules.doublingnote": "Before play, the holder of the K♥ or of a queen may double it in its contract, and the card is shown: whoever else takes it pays double, and the holder gains its value.",
    "rules.doublingnote.team": "Before play, the holder of the K♥ or of a queen may double it in its contract, and the card is shown: an opponent who takes it pays double and the holder gains its value; a partner who takes it pays double and nobody gains.",
    "rules.selfcapture.normal": "If the holder takes his own doubled card, he pays its plain value and nobody gains.",
    "rules.selfcapture.doubled": "If the holder takes his own doubled card, he pays double and nobody gains.",
    "rules.selfcapture.doubled_leader_gains": "If the holder takes his own doubled card, he pays double and whoever led that trick gains its value; if he led that trick himself, he pays only its plain value.",
    "rules.redeal.koh": "In King of Hearts, a player whose hearts are just the K♥, just the A♥, or exactly the A♥ and K♥ may claim a redeal when asked.",
    "rules.redeal.trix": "In Trix, a player with all four 2s, or with three 2s and the 3 of the suit whose 2 he lacks, may claim a redeal when asked.",
    "rules.redeal.after": "A redeal scores nothing: the king deals again and names a contract again (the same one if he likes).",
    "rules.partners": "Players sitting across from each other are a team and add their scores.",
    "rules.hintsnote": "The host allowed hints: any player may ask, on his turn, what the hard bot would do in his place.",
    "rules.timernote": "Each move has {n} seconds; then a bot plays it for you.",
    "rules.win": "The highest total after the last deal wins.",
    "rules.win.team": "The team with the higher total after the last deal wins, both partners alike.",
    "rules.tie.none": "If the lead is shared, the leaders share the win.",
    "rules.tie.none.team": "If the two teams are level, they share the win.",
    "rules.tie.extra_koh_deal": "If the lead is shared, one more King of Hearts deal decides, and another after it until one player leads.",
    "rules.tie.extra_koh_deal.team": "If the two teams are level, one more King of Hearts deal decides, and another after it until one team leads.",
    "rules.tie.extra_kingdom": "If the lead is shared, a further kingdom decides, and another after it until one player leads.",
    "rules.tie.extra_kingdom.team": "If the two teams are level, a further kingdom decides, and another after it until one team leads.",
    "rules.timer": "{n} s a move", "unit.s": "{n} s", "lobby.rules": "Rules: {rules}", "lobby.invite.guest": "The table's invite link:",
    "presetnote.classic": "No doubling; no heart lead in King of Hearts while holding another suit; a tie is settled by one more King of Hearts deal.",
    "presetnote.wikipedia": "Doubling of K♥ and queens; hearts may be led; redeals for some weak hands in King of Hearts and Trix; a tie is shared.",
    "presetnote.denexa": "Doubling (taking your own doubled card can cost double); the kingdom passes against the direction of play; no heart lead in King of Hearts while holding another suit; Trix throw-ins; a tie is shared.",
    "presetnote.online": "As the apps play: doubling; hearts may be led; a deal ends once its penalty cards are taken; a tie is settled by one more kingdom.",
    "presetnote.complex": "Two contracts a kingdom: Complex (all four penalties at once) and Trix; doubling (taking your own doubled card can cost double); a tie is shared.",
    "presetnote.withcomplex": "With Complex, each kingdom is Complex and Trix: what is said of King of Hearts applies only to a tiebreak deal.",
    "home.default.on": "on", "home.default.off": "off",
    "you": "You",
    "error.generic": "Something went wrong: {msg}",
  },
  ar: {
    "nav.new": "طاولة جديدة", "nav.history": "السجل", "nav.replay": "إعادة",
    "title.home": "opentrix — تركس، لعبة الممالك", "title.page": "{page} — opentrix",
    "title.table": "الطاولة {code} — opentrix", "title.yourturn": "▶ دورك · الطاولة {code} — opentrix",
    "lang.other": "English",
    "home.title": "تركس، لعبة الممالك",
    "home.tagline": "العب فوراً ضد الروبوتات، أو ادعُ ثلاثة أصدقاء إلى طاولتك.",
    "home.create": "افتح طاولة", "home.join": "انضم إلى طاولة",
    "home.name": "اسمك", "home.rules": "القوانين", "home.doubling": "الدبل (شيخ الكبة والبنات)",
    "home.partnership": "شراكة (كل اثنين متقابلين فريق)", "home.complex": "تركس كومبلكس: كل مملكة لعبتان، كومبلكس وتركس (توزيعتان لكل مملكة)",
    "home.hints": "تلميحات للجميع، والأصدقاء أيضاً (طاولة للتعلّم)",
    "home.kingdoms": "المدة", "home.kingdoms.4": "مباراة كاملة (أربع ممالك)", "home.kingdoms.1": "مملكة واحدة",
    "home.timer": "مؤقت الدور", "home.timer.0": "بلا مؤقت", "home.seconds": "{n} ثانية", "home.seconds.few": "{n} ثوانٍ",
    "home.bots": "الروبوتات للمقاعد الفارغة", "home.playbots": "العب الآن ضد الروبوتات", "home.invite": "افتح الطاولة وادعُ أصدقاءك",
    "home.code": "رمز الطاولة", "home.joinbtn": "انضم",
    "home.default": "حسب القوانين المختارة",
    "home.resume.title": "طاولتك قيد اللعب", "home.resume": "العودة إلى طاولتك",
    "home.resume.playing": "الطاولة {code}: المباراة جارية.", "home.resume.lobby": "الطاولة {code}: بانتظار اللاعبين.",
    "level.easy": "سهل", "level.medium": "متوسط", "level.hard": "صعب", "level.random": "عشوائي",
    "level.basic": "أساسي", "level.strong": "قوي",
    "preset.classic": "كلاسيكي", "preset.wikipedia": "الشائعة (ويكيبيديا)", "preset.denexa": "دينكسا", "preset.online": "التطبيقات", "preset.complex": "تركس كومبلكس",
    "home.options": "خيارات الطاولة (للزرّين كليهما)", "lobby.title": "الطاولة {code}", "lobby.invite": "أرسل هذا الرابط إلى أصدقائك:", "lobby.copy": "انسخ الرابط",
    "table.points.title": "نقاط هذه التوزيعة حتى الآن", "lobby.share": "مشاركة", "lobby.local": "هذا الرابط يعمل على هذا الحاسوب فقط. ليدخل أصدقاؤك من شبكتك شغّل الخادم بالأمر opentrix serve --host 0.0.0.0.",
    "lobby.copied": "تم نسخ الرابط", "lobby.open": "إن لم يأخذه أحد يلعبه روبوت ({level})",
    "lobby.take": "اجلس هنا", "lobby.start": "ابدأ المباراة", "lobby.waiting": "بانتظار أن يبدأ المضيف…",
    "lobby.nowhost": "غادر المضيف الطاولة: أصبحت أنت المضيف ويمكنك أن تبدأ المباراة.",
    "lobby.hostmoved": "كنت غائباً، فأصبح {name} المضيف وهو من يبدأ المباراة.",
    "lobby.free": "أخلِ المقعد", "lobby.free.label": "أخلِ مقعد {name}",
    "lobby.unseated": "أخلى المضيف مقعدك. يمكنك أن تتفرج، أو أن تجلس في مقعد فارغ.",
    "lobby.you": "أنت", "lobby.host": "المضيف", "list.sep": "، ", "list.and": " و", "lobby.watch": "أنت تتفرج. اجلس في مقعد فارغ لتلعب.",
    "lobby.seat": "المقعد {n}", "lobby.partner": "شريك المقعد {n}", "lobby.yourname": "اسمك", "lobby.needname": "اكتب اسمك لتجلس.", "home.host": "المضيف",
    "seat.bot": "{name} ({level})", "seat.open": "مقعد فارغ", "seat.away": "يلعب عنه روبوت الآن", "seat.offline": "انقطع الاتصال",
    "seat.standin": "انقطع الاتصال · يلعب روبوت بعد {n} ث", "seat.standin.short": "يلعب روبوت بعد {n} ث", "table.standin": "يلعب روبوت عن {name} بعد {n} ث",
    "table.code": "الطاولة", "table.king": "الملك: {name}", "table.contract": "اللعبة", "table.choosing": "الدور على {name} لاختيار اللعبة", "table.choosing.you": "أنت تختار اللعبة",
    "table.deal": "التوزيعة {n}", "table.kingdom": "المملكة {n} من {of}", "table.kingdom.extra": "المملكة {n} لكسر التعادل", "table.tiebreak": "توزيعة كسر التعادل",
    "table.scores": "النتائج", "table.lasttrick": "آخر لمّة", "table.close": "إغلاق", "table.spectators": "المتفرجون: {n}",
    "table.turn.you": "دورك", "table.turn.other": "دور {name}",
    "table.asked.double.you": "جوابك: دبل؟", "table.asked.double.other": "السؤال عن الدبل عند {name}",
    "table.asked.claim.you": "جوابك: إعادة التوزيع؟", "table.asked.claim.other": "السؤال عن إعادة التوزيع عند {name}",
    "table.asked.claim.none": "سؤال إعادة التوزيع: يدك لا تسمح بالطلب", "table.tricks": "{n} لمّة", "table.tricks.one": "لمّة واحدة", "table.tricks.two": "لمّتان", "table.tricks.few": "{n} لمّات",
    "table.pass": "باس", "table.out": "المركز {n}", "table.cardsleft": "{n} ورقة", "table.cardsleft.one": "ورقة واحدة", "table.cardsleft.two": "ورقتان", "table.cardsleft.few": "{n} أوراق", "table.waiting": "يُرجى الانتظار…",
    "why.follow": "عليك أن تلعب من نفس الشكل: {suit}.", "why.kinghearts": "ليس معك من الشكل المطلوب، فعليك أن ترمي شيخ الكبة.",
    "why.hearts": "لا يجوز أن تبدأ بالكبة ومعك شكل آخر.",
    "why.place": "{card} لا تنزل على الصفوف بعد. يمكنك أن تنزّل {cards}.", "why.noplace": "لا شيء من أوراقك ينزل على الصفوف: باس.",
    "table.trix.place": "دورك: نزّل شبّاً أو الورقة التي تلي طرف صفّ شكلها",
    "table.reconnecting": "انقطع الاتصال — نعيد الاتصال…", "table.away": "روبوت يلعب عنك الآن.", "table.back": "استعادة مقعدي",
    "table.chat": "دردشة", "chat.title": "دردشة الطاولة", "chat.send": "أرسل", "chat.placeholder": "اكتب رسالة إلى الطاولة",
    "chat.watching": "أنت تتفرّج: الكتابة هنا للاعبين فقط.", "chat.empty": "لا رسائل بعد.",
    "chat.seatfirst": "اجلس في مقعد لتكتب هنا.",
    "chat.mutes": "إخفاء رسائل:", "chat.mute.label": "إخفاء رسائل {name}", "chat.muted": "{name} (مخفية: {n})",
    "chat.unread": "دردشة (رسائل جديدة: {n})", "chat.toast": "{name}: {text}",
    "chat.toofast": "أسرع من اللازم: 5 رسائل على الأكثر في 10 ثوانٍ. رسالتك ما زالت في الخانة.",
    "table.hint": "تلميح", "hint.title": "ما كان الروبوت الصعب سيفعله مكانك (أمام الروبوتات، أو حيث سمح المضيف بالتلميحات)",
    "hint.says": "تلميح: {what}", "hint.play": "العب {card}", "hint.contract": "اختر {contract}", "hint.double": "دبّل {cards}",
    "hint.nodouble": "لا تدبّل", "hint.pass": "باس", "hint.claim": "اطلب إعادة التوزيع", "hint.noclaim": "لا تطلب إعادة التوزيع",
    "leave.title": "تغادر هذه المباراة؟", "leave.sub": "يبقى مقعدك لك: يلعب عنك روبوت أثناء غيابك، والصفحة الرئيسية تعيدك إليه.",
    "leave.stay": "ابقَ على الطاولة", "leave.go": "غادر",
    "table.watching": "أنت تتفرج على هذه الطاولة. (لك مقعد فيها؟ افتح الطاولة من المتصفح الذي انضممت منه.)",
    "table.notsent": "غير متصل، فلم تُرسل حركتك. جارٍ إعادة الاتصال…",
    "table.stale": "فات الأوان: كانت تلك الحركة لدورٍ مضى.",
    "seed.chip": "توزيع محدد مسبقاً (البذرة {seed})", "seed.why": "اختار المضيف البذرة: يمكن معرفة الأوراق في كل توزيعة مسبقاً.",
    "dlg.nextin": "تبدأ التوزيعة التالية بعد {n} ث.", "dlg.lastdeal": "آخر توزيعة",
    "tiebreak.extra_koh_deal": "تعادل في الصدارة: توزيعة شيخ كبة إضافية تحسم المباراة.",
    "tiebreak.extra_kingdom": "تعادل في الصدارة: مملكة إضافية تحسم المباراة.",
    "rules.doubling": "مع الدبل", "rules.nodoubling": "بلا دبل", "rules.partnership": "شراكة", "rules.individual": "فردي", "rules.hints": "التلميحات مسموحة",
    "rules.kingdoms": "الممالك: {n}", "rules.kingdoms.one": "مملكة واحدة", "table.invite": "رابط المشاهدة", "table.invite.title": "انسخ رابط هذه الطاولة: من يفتحه يشاهد المباراة", "table.invite.copied": "تم نسخ الرابط: من يفتحه يشاهد المباراة",
    "table.timeout": "انتهى وقت {name}؛ يتولى روبوت اللعب الآن.", "table.timeout.you": "انتهى وقتك؛ يتولى روبوت اللعب الآن.",
    "table.winner": "اللمّة من نصيب {name}", "table.winner.you": "اللمّة من نصيبك", "table.nolast": "لم تُؤخذ أي لمّة بعد.",
    "table.doubledby": "مدبّلة من {name}",
    "table.declined": "حامل {what}، بلا دبل", "table.declined.queen": "بنت", "table.declined.either": "{card} أو بنت",
    "table.declined.title": "لا يُسأل عن الدبل إلا من يحمل الورقة: سُئل هذا اللاعب ولم يدبّل.",
    "dlg.contract": "اختر اللعبة", "dlg.contract.sub": "أنت الملك. اختر لعبة لم تُلعب بعد في مملكتك.",
    "dlg.double": "دبل؟", "dlg.double.sub": "الدبل يكشف الورقة للجميع: إن أكلها لاعب آخر دفع الضعف وربحتَ أنت قيمتها.",
    "dlg.double.sub.team": "الدبل يكشف الورقة للجميع: إن أكلها أحد الخصمين دفع الضعف وربحتَ أنت قيمتها، وإن أكلها شريكك دفع الضعف ولا يربح أحد.",
    "dlg.double.card": "دبّل {card}", "dlg.nodouble": "بلا دبل",
    "dlg.claim": "تطلب إعادة التوزيع؟", "dlg.claim.sub": "يحق لك إلغاء هذه التوزيعة: لا يسجّل أحد نقاطاً، ويوزّع الملك من جديد ويختار اللعبة مرة أخرى.",
    "dlg.claim.yes": "أطلب إعادة التوزيع", "dlg.claim.no": "نكمل اللعب",
    "claim.kh.one": "ليس معك من الكبة إلا {card}.", "claim.kh.two": "ليس معك من الكبة إلا {a} و{b}.",
    "claim.twos.four": "معك أوراق الـ2 الأربع.", "claim.twos.three": "معك ثلاث أوراق 2 و{card}، الـ3 من الشكل الرابع.",
    "dlg.dealover": "نهاية التوزيعة {n}", "dlg.thrownin": "أُلغيت التوزيعة بطلب من {name}؛ يُعاد التوزيع.", "dlg.thrownin.you": "أُلغيت التوزيعة بطلبك؛ يُعاد التوزيع.",
    "dlg.next": "التوزيعة التالية", "dlg.readywait": "بانتظار الباقين… (الجاهزون: {n})",
    "dlg.took": "أخذ", "dlg.finished": "الترتيب", "dlg.deal": "التوزيعة", "dlg.total": "المجموع", "dlg.player": "اللاعب",
    "dlg.matchover": "انتهت المباراة", "dlg.won": "الفائز: {names}!", "dlg.won.team": "الفائزان: {names}!", "dlg.won.you": "مبروك، الفوز لك!", "dlg.shared": "فوز مشترك: {names}",
    "dlg.download": "نزّل السجل", "dlg.replay": "شاهد الإعادة", "dlg.newtable": "طاولة جديدة",
    "dlg.rematch": "مباراة أخرى", "dlg.rematch.wait": "جارٍ تجهيز المباراة الأخرى…", "dlg.rematch.asked": "وصل طلب مباراة أخرى من {name}.",
    "dlg.rematch.join": "انضم إلى المباراة الأخرى", "dlg.rematch.watch": "شاهد المباراة الأخرى",
    "dlg.rematch.offline": "غير متصل، فلم يُرسل طلب المباراة الأخرى. جارٍ إعادة الاتصال…",
    "took.tricks": "{n} لمّة", "took.tricks.one": "لمّة واحدة", "took.tricks.two": "لمّتان", "took.tricks.few": "{n} لمّات", "took.nothing": "لا شيء", "took.place": "المركز {n}",
    // the server's refusals by their code (errorText); English shows the server's own words
    "err.record_at_deal": "التوزيعة {deal}: {why}", "err.record_at_play": "التوزيعة {deal}، الورقة {play}: {why}",
    "err.no_table": "لا توجد طاولة '{code}'", "err.over": "انتهت المباراة على الطاولة '{code}'، وسجلّها باقٍ فيها",
    "err.match_over": "انتهت المباراة؛ يمكنك استعراضها", "err.started": "بدأت المباراة بالفعل؛ يمكنك مشاهدتها",
    "err.full": "كل المقاعد مشغولة", "err.seat_taken": "هذا المقعد مشغول", "err.name_missing": "اكتب اسمك",
    "err.name_invisible": "يحتاج الاسم إلى حرف ظاهر (الحروف الخفية لا تُحسب)", "err.name_length": "الاسم من حرف واحد إلى 40 حرفاً",
    "err.name_control": "لا يمكن أن يحتوي الاسم على رموز تحكّم", "err.name_you": "«{name}» هو ما يظهر لكل لاعب مكان اسمه؛ اختر اسماً آخر",
    "err.name_bot": "لا يمكن أن يبدأ اسم اللاعب بـ bot: (هكذا تُسمّى الروبوتات في السجلات)",
    "err.bad_token": "رمز المقعد هذا غير صالح على هذه الطاولة؛ أنت تشاهد", "home.notatable": "هذا ليس رابط طاولة: الصق رابط الدعوة (‎/t/…) أو رمز الطاولة",
    "table.none": "لا توجد طاولة '{code}'", "table.retry": "حاول مجدداً", "team.a": "فريق {a} و{b}", "dlg.team": "الفريق", "scores.thrownin": "أُلغيت", "home.player": "لاعب",
    "history.title": "المباريات المنتهية", "history.older": "مباريات أقدم", "history.empty": "لا توجد مباراة منتهية بعد. العب واحدة!", "history.when": "انتهت",
    "history.players": "اللاعبون", "history.totals": "النتائج", "history.rules": "القوانين",
    "replay.title": "الإعادة", "replay.upload": "افتح ملف opentrix-record/1", "replay.prevdeal": "التوزيعة السابقة",
    "replay.nextdeal": "التوزيعة التالية", "replay.prev": "ورقة للخلف", "replay.next": "ورقة للأمام",
    "replay.start": "بداية التوزيعة", "replay.end": "نهاية التوزيعة", "replay.step": "الورقة {i} من {n}", "replay.of": "التوزيعة {i} من {n}",
    "replay.bad": "لا يمكن عرض هذا الملف: {why}", "replay.notfound": "لا توجد مباراة منتهية بهذا الرمز.", "replay.pick": "اختر مباراة منتهية من صفحة السجل، أو افتح ملف سجل.",
    "a11y.hand": "أوراقك", "a11y.trick": "الأوراق على الطاولة", "a11y.layouts": "صفوف التركس",
    "a11y.layout": "{suit}: من {low} إلى {high}", "a11y.layout.empty": "{suit}: فارغ", "a11y.king": "الملك",
    "a11y.taken": "أوراق العقوبة المأخوذة", "a11y.doubled": "الأوراق المدبّلة",
    "a11y.botseat": "{label}: {name}",
    "card.name": "{rank} {suit}",
    "rank.A": "آص", "rank.K": "شيخ", "rank.Q": "بنت", "rank.J": "شب",
    "suit.S": "البستوني", "suit.H": "الكبة", "suit.D": "الديناري", "suit.C": "السباتي",
    "table.rules": "القوانين", "rules.title": "طريقة اللعب",
    "rules.intro": "المباراة {n} مملكة. في كل مملكة يكون أحد اللاعبين الملك: قبل كل توزيعة يختار لعبة لم يلعبها بعد في مملكته.",
    "rules.intro.two": "المباراة مملكتان. في كل مملكة يكون أحد اللاعبين الملك: قبل كل توزيعة يختار لعبة لم يلعبها بعد في مملكته.",
    "rules.intro.few": "المباراة {n} ممالك. في كل مملكة يكون أحد اللاعبين الملك: قبل كل توزيعة يختار لعبة لم يلعبها بعد في مملكته.",
    "rules.intro.one": "المباراة مملكة واحدة لها ملك واحد: قبل كل توزيعة من توزيعاتها يختار لعبة لم يلعبها بعد.",
    "rules.firstking": "الملك الأول هو من تقع معه {card} في التوزيعة الأولى. والملك يبدأ اللعب دائماً: يفتح أول لمّة، وفي التركس الدور الأول له (ينزل شبّاً، أو يمرّر إن لم يكن معه شب). واللعب يدور عكس عقارب الساعة: اللاعب التالي على يمينك.",
    "rules.againstplay": "عند انتهاء المملكة تنتقل عكس اتجاه اللعب: يصبح اللاعب الذي يلعب قبل الملك مباشرة هو الملك التالي.",
    "rules.tricks": "في ألعاب اللمّات العب من الشكل المطلوب إن كان معك؛ أعلى ورقة من ذلك الشكل تأخذ اللمّة، ومن لعبها يبدأ اللمّة التالية.",
    "goal.king_of_hearts": "لا تأكل شيخ الكبة: يكلّفك {k}", "goal.queens": "كل بنت تأكلها تكلّفك {q}",
    "goal.diamonds": "كل ديناري تأكله يكلّفك {d}", "goal.ltoosh": "كل لمّة تأكلها تكلّفك {t}",
    "goal.trix": "لا لمّات: الصفوف تُبنى من الشبّ طلوعاً ونزولاً؛ نزّل شبّاً أو الورقة التي تلي طرف صفّ شكلها، وإلا فباس. أول من يخلّص ورقه يربح {a}، ثم {b} و{c} و{d}",
    "goal.complex": "كل لمّة تكلّفك {t}، ويُضاف {k} لشيخ الكبة و{q} لكل بنت و{d} لكل ديناري فيها",
    "rules.heartsban": "في شيخ الكبة لا يجوز أن تبدأ بالكبة ومعك شكل آخر.",
    "rules.kingdiscard": "في شيخ الكبة، من ليس معه الشكل المطلوب ومعه شيخ الكبة عليه أن يرميه.",
    "rules.kingdiscard.complex": "في الكومبلكس، من ليس معه الشكل المطلوب ومعه شيخ الكبة عليه أن يرميه.",
    "rules.earlyend": "تنتهي لعبة اللمّات حالما تؤكل آخر ورقة عقوبة فيها (شيخ الكبة، أو الديناري الثالث عشر، أو البنت الرابعة)؛ أما اللطوش فتُلعب لمّاتها الثلاث عشرة كلها.",
    "rules.doublingnote": "قبل اللعب يمكن لمن معه شيخ الكبة أو بنت أن يدبّل ورقته في لعبتها فتنكشف للجميع: إن أكلها غيره دفع الضعف وربح صاحبها قيمتها.",
    "rules.doublingnote.team": "قبل اللعب يمكن لمن معه شيخ الكبة أو بنت أن يدبّل ورقته في لعبتها فتنكشف للجميع: إن أكلها أحد الخصمين دفع الضعف وربح صاحبها قيمتها، وإن أكلها شريكه دفع الضعف ولا يربح أحد.",
    "rules.selfcapture.normal": "إن أكل صاحب الورقة المدبّلة ورقته بنفسه دفع قيمتها العادية ولا يربح أحد.",
    "rules.selfcapture.doubled": "إن أكل صاحب الورقة المدبّلة ورقته بنفسه دفع الضعف ولا يربح أحد.",
    "rules.selfcapture.doubled_leader_gains": "إن أكل صاحب الورقة المدبّلة ورقته بنفسه دفع الضعف وربح قيمتها من بدأ تلك اللمّة؛ وإن كان هو من بدأها دفع قيمتها العادية فقط.",
    "rules.redeal.koh": "في شيخ الكبة، من ليس معه من الكبة إلا شيخ الكبة، أو إلا الآص، أو الآص والشيخ فقط، يحق له أن يطلب إعادة التوزيع عندما يُسأل.",
    "rules.redeal.trix": "في التركس، من معه أوراق الـ2 الأربع، أو ثلاث أوراق 2 مع الـ3 من الشكل الرابع، يحق له أن يطلب إعادة التوزيع عندما يُسأل.",
    "rules.redeal.after": "التوزيعة الملغاة لا تُحسب: يوزّع الملك من جديد ويختار اللعبة مرة أخرى (وله أن يختار اللعبة نفسها).",
    "rules.partners": "كل لاعبين متقابلين فريق واحد وتُجمع نقاطهما.",
    "rules.hintsnote": "سمح المضيف بالتلميحات: لكل لاعب أن يسأل في دوره ماذا كان الروبوت الصعب سيفعل مكانه.",
    "rules.timernote": "لكل دور {n} ثانية، وبعدها يلعب الروبوت عنك.", "rules.timernote.few": "لكل دور {n} ثوانٍ، وبعدها يلعب الروبوت عنك.",
    "rules.win": "يفوز صاحب أعلى مجموع بعد آخر توزيعة.",
    "rules.win.team": "يفوز الفريق صاحب المجموع الأعلى بعد آخر توزيعة، فيفوز الشريكان معاً.",
    "rules.tie.none": "إن تعادل المتصدرون تقاسموا الفوز.",
    "rules.tie.none.team": "إن تعادل الفريقان تقاسما الفوز.",
    "rules.tie.extra_koh_deal": "إن تعادل المتصدرون حسمت الفوزَ توزيعةُ شيخ كبة إضافية، وتتكرر حتى يتقدم لاعب واحد.",
    "rules.tie.extra_koh_deal.team": "إن تعادل الفريقان حسمت الفوزَ توزيعةُ شيخ كبة إضافية، وتتكرر حتى يتقدم أحدهما.",
    "rules.tie.extra_kingdom": "إن تعادل المتصدرون حسمت الفوزَ مملكةٌ إضافية، وتتكرر حتى يتقدم لاعب واحد.",
    "rules.tie.extra_kingdom.team": "إن تعادل الفريقان حسمت الفوزَ مملكةٌ إضافية، وتتكرر حتى يتقدم أحدهما.",
    "rules.timer": "{n} ث لكل دور", "unit.s": "{n} ث", "lobby.rules": "القوانين: {rules}", "lobby.invite.guest": "رابط الدعوة إلى الطاولة:",
    "presetnote.classic": "بلا دبل؛ في شيخ الكبة لا يجوز البدء بالكبة ومعك شكل آخر؛ التعادل تحسمه توزيعة شيخ كبة إضافية.",
    "presetnote.wikipedia": "مع دبل شيخ الكبة والبنات؛ يجوز البدء بالكبة؛ إعادة التوزيع لبعض الأيدي الضعيفة في شيخ الكبة والتركس؛ التعادل فوز مشترك.",
    "presetnote.denexa": "مع الدبل (من يأكل ورقته المدبّلة قد يدفع الضعف)؛ المملكة تنتقل عكس اتجاه اللعب؛ في شيخ الكبة لا يجوز البدء بالكبة ومعك شكل آخر؛ إعادة التوزيع في التركس؛ التعادل فوز مشترك.",
    "presetnote.online": "كما تلعبها التطبيقات: مع الدبل؛ يجوز البدء بالكبة؛ تنتهي التوزيعة حين تؤكل أوراق العقوبة؛ التعادل تحسمه مملكة إضافية.",
    "presetnote.complex": "لعبتان في كل مملكة: كومبلكس (العقوبات الأربع معاً) والتركس؛ مع الدبل (من يأكل ورقته المدبّلة قد يدفع الضعف)؛ التعادل فوز مشترك.",
    "presetnote.withcomplex": "مع الكومبلكس تكون كل مملكة كومبلكس وتركس: ما يُقال عن شيخ الكبة لا يخصّ إلا توزيعة فاصلة عند التعادل.",
    "home.default.on": "نعم", "home.default.off": "لا",
    "you": "أنت",
    "error.generic": "حدث خطأ: {msg}",
  },
};

const CONTRACTS = {
  en: {
    king_of_hearts: ["King of Hearts", "K♥ costs 75"],
    queens: ["Queens", "each queen costs 25"],
    diamonds: ["Diamonds", "each ♦ costs 10"],
    ltoosh: ["Ltoosh", "each trick costs 15"],
    trix: ["Trix", "go out first: 200, 150, 100, 50"],
    complex: ["Complex", "all four penalties at once"],
  },
  ar: {
    king_of_hearts: ["شيخ الكبة", "شيخ الكبة يكلّف 75"],
    queens: ["البنات", "كل بنت تكلّف 25"],
    diamonds: ["الديناري", "كل ديناري يكلّف 10"],
    ltoosh: ["اللطوش", "كل لمّة تكلّف 15"],
    trix: ["تركس", "اخرج أولاً: 200، 150، 100، 50"],
    complex: ["كومبلكس", "العقوبات الأربع معاً"],
  },
};

const SUITS = {
  en: ["Spades", "Hearts", "Diamonds", "Clubs"],
  ar: ["بستوني", "كبة", "ديناري", "سباتي"],
};

function initialLang() {
  const q = new URLSearchParams(location.search).get("lang");
  if (q === "ar" || q === "en") {
    localStorage.setItem("opentrix:lang", q); // a shared ?lang= link keeps its language past a reload
    return q;
  }
  const saved = localStorage.getItem("opentrix:lang");
  if (saved === "ar" || saved === "en") return saved;
  return (navigator.language || "en").toLowerCase().startsWith("ar") ? "ar" : "en";
}

export let lang = initialLang();

const PLURALS = { en: new Intl.PluralRules("en"), ar: new Intl.PluralRules("ar") };

/** ``key``'s text in the page's language with ``{name}`` filled in. With a count ``n``, the form its
 *  language wants for that number (``key.one``, and in Arabic ``key.two``, ``key.few``, ``key.many``),
 *  where the table has one; else ``key`` itself. */
export function t(key, vars = {}) {
  if (typeof vars.n === "number") {
    const form = `${key}.${PLURALS[lang].select(vars.n)}`;
    if (STRINGS[lang][form] !== undefined) key = form;
  }
  const text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => (vars[k] ?? `{${k}}`));
}

/** A server's refusal in the page's language: by its ``code`` where the page knows it (no table, a
 *  seat taken, a name refused...), else the server's own (English) ``message``. Takes an Error from
 *  ``api()`` or an ``error`` message from the table's WebSocket. */
export function errorText(err) {
  const key = err && err.code ? `err.${err.code}` : null;
  return key && STRINGS[lang][key] !== undefined ? t(key, err.params || {}) : String((err && err.message) || "");
}

export function contractName(id) {
  return (CONTRACTS[lang][id] || [id])[0];
}

export function contractHint(id) {
  return (CONTRACTS[lang][id] || ["", ""])[1];
}

const BOT_NAMES = { en: ["Nour", "Samir", "Rania", "Karim"], ar: ["نور", "سمير", "رانيا", "كريم"] };
// for a bot whose own name a player at the table goes by
const SPARE_NAMES = {
  en: ["Layla", "Fadi", "Huda", "Tariq", "Salma", "Ziad", "Dana", "Yousef"],
  ar: ["ليلى", "فادي", "هدى", "طارق", "سلمى", "زياد", "دانا", "يوسف"],
};

/** A friendly name for the bot in a seat, so three bots at one table can be told apart; ``players``,
 *  the names of the people at the table, are never given to a bot (a friend called Karim beside a bot
 *  called Karim could not be told from it). */
export function botName(seat, players = []) {
  const taken = new Set();
  for (const n of players) { // "Karim (Medium)" is taken as "Karim" too: it would look like the bot
    taken.add(String(n).toLocaleLowerCase());
    taken.add(String(n).replace(/\s*\([^()]*\)\s*$/, "").toLocaleLowerCase());
  }
  const own = BOT_NAMES[lang][seat];
  if (!taken.has(own.toLocaleLowerCase())) return own;
  const spare = SPARE_NAMES[lang];
  for (let i = 0; i < spare.length; i++) { // each seat looks from its own place in the list: two bots, two names
    const name = spare[(2 * seat + i) % spare.length];
    if (!taken.has(name.toLocaleLowerCase())) return name;
  }
  return own;
}

/** A record's player for the page: a person's name as written, a bot ("bot:<level>") by its friendly
 *  name and level, never the name of a person among ``players`` (the record's four). */
export function recordPlayer(name, seat, players) {
  if (!name) return `#${seat + 1}`;
  if (!name.startsWith("bot:")) return name;
  const people = players.filter((p) => p && !p.startsWith("bot:"));
  return t("seat.bot", { name: botName(seat, people), level: t(`level.${name.slice(4)}`) });
}

export function suitName(i) {
  return SUITS[lang][i];
}

/** A card as a screen reader should say it: "Queen of spades", "بنت البستوني". */
export function cardName(card) {
  const r = card[0];
  const rank = r === "T" ? "10" : "AKQJ".includes(r) ? t(`rank.${r}`) : r;
  return t("card.name", { rank, suit: t(`suit.${card[1]}`) });
}

export function applyLang() {
  document.documentElement.lang = lang;
  document.documentElement.dir = lang === "ar" ? "rtl" : "ltr";
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  const toggle = document.getElementById("lang-toggle");
  if (toggle) {
    toggle.textContent = t("lang.other");
    toggle.lang = lang === "ar" ? "en" : "ar"; // the button names the other language in that language
  }
}

export function setLang(next) {
  lang = next;
  localStorage.setItem("opentrix:lang", next);
  applyLang();
  window.dispatchEvent(new CustomEvent("langchange"));
}

export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}
