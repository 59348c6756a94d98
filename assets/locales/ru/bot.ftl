# Слова самого бота: лобби, публикации, выбор хода, ответы, отказы.
# Упоминания (<@…>), ссылки на каналы (<#…>) и время (<t:…:R>) приходят в переменных готовыми.

bot-name = Шакал
bot-player = 🤖 бот
bot-for-player = 🤖 бот вместо { $player }
player-unknown = игрок
seat-free = (свободно)

## Сроки и списки

duration-days = { $count ->
    [one] { $count } день
    [few] { $count } дня
   *[many] { $count } дней
}
duration-hours = { $count ->
    [one] { $count } час
    [few] { $count } часа
   *[many] { $count } часов
}
# После предлога («за 1 минуту до конца хода») приходит $case = accusative.
duration-minutes = { $case ->
    [accusative] { $count ->
        [one] { $count } минуту
        [few] { $count } минуты
       *[many] { $count } минут
    }
   *[nominative] { $count ->
        [one] { $count } минута
        [few] { $count } минуты
       *[many] { $count } минут
    }
}
duration-seconds = { $case ->
    [accusative] { $count ->
        [one] { $count } секунду
        [few] { $count } секунды
       *[many] { $count } секунд
    }
   *[nominative] { $count ->
        [one] { $count } секунда
        [few] { $count } секунды
       *[many] { $count } секунд
    }
}
more-lines = …и ещё { $count ->
    [one] { $count } строка
    [few] { $count } строки
   *[many] { $count } строк
}

## Настройки

setting-board_size = Поле
setting-players = Игроки
setting-tile_pack = Клетки
setting-plane_seats = Места в самолёте
setting-retreat_distance = Расстояние отступления
setting-restriction_kills = Нарушение запрета убивает
setting-missionary_blocks_attack = Миссионер мешает нападать
setting-cannonball_kills = Ядро убивает
setting-fortress_vs_cannonball = Крепость защищает от ядра
setting-cannonball_spares_fog = Ядро не трогает закрытые клетки
setting-no_wasted_rum = Ром не пропадает зря
setting-no_trapped_rum = Застрявший в пещере не подаёт ром
setting-boardgame_caves = Пещеры как в настольной игре
setting-destroying_ships = Корабли можно потопить
setting-friendly_fire = Огонь по своим
setting-stall_rounds = Кругов застоя до конца игры
setting-turn_time = Время на ход
setting-reminder = Напоминание до срока
setting-timeout = Когда время вышло
setting-max_missed = Пропусков до замены ботом
setting-timeout_level = Уровень бота на замену

value-on = вкл.
value-off = выкл.
value-board = { $n }×{ $n }
value-players = { $n ->
    [one] { $n } игрок
    [few] { $n } игрока
   *[many] { $n } игроков
}
value-players-2x2 = двое на двое
value-pack-classic = классика
value-pack-full = полный (с дополнением)
value-pack-custom = свой набор
value-seats-two = два места
value-seats-one = одно место
value-seats-chosen = выбранное место
value-distance-king = ходом короля
value-distance-taxicab = шагами по клеткам
value-distance-euclid = по прямой
value-timeout-bot = за игрока ходит бот
value-timeout-resign = место сдаётся
value-timeout-skip = ход пропускается

settings-pick = Выберите настройку
settings-title = Настройки игры #{ $game }: { $summary }
settings-choose-value = Выберите новое значение «{ $setting }».
settings-changed = Игра #{ $game }: настройка «{ $setting }» изменена. Теперь: { $summary }

## Лобби

lobby-title = **Шакал #{ $game }** · новая игра · создатель: { $owner }
lobby-seats = **Места**
lobby-seat = { $seat }. { $who }
lobby-sides = Команды 1 и 3 играют вместе против команд 2 и 4.
lobby-rules = Изменённые правила: { $rules }
lobby-how = Нажмите **Играть**, чтобы занять место. Создатель может добавить ботов, поменять настройки и начать, когда все места заняты.
lobby-started = ▶️ Игра началась в ветке { $place }.
lobby-started-here = ▶️ Игра началась: она идёт здесь, в этом канале.
lobby-starting = ▶️ Игра начинается: её ветка сейчас откроется.
lobby-final-post = [Итоговое поле и счёт]({ $link })

button-join = Играть
button-leave = Выйти
button-add-bot = Добавить бота
button-settings = Настройки
button-start = Начать
button-cancel = Отменить
button-my-moves = Мои ходы
button-reclaim = Вернуться на своё место
button-pause-yes = Поставить паузу
button-pause-no = Играть дальше
button-undo-yes = Вернуть ход
button-undo-no = Оставить ход
button-back = Назад
button-play-anyway = Всё равно сходить
button-resign = Да, сдаться

bot-level = Выберите уровень бота.
level-random = Случайный
level-easy = Лёгкий
level-normal = Обычный
level-hard = Сильный
level-random-about = ходит как попало
level-easy-about = хватает золото и несёт на корабль; ходит сразу
level-normal-about = думает наперёд, около секунды на ход
level-hard-about = просчитывает больше вариантов, до двух секунд на ход
bot-added = Бот занял место.

## Публикации в игре

thread-name = Шакал #{ $game }: { $players }
post-start = 🏴‍☠️ **Шакал #{ $game } начинается!** { $players }
post-how-to-play = Нажмите **Мои ходы** (или `/шакал ходы`), чтобы увидеть своё поле и сходить; `/шакал правила` объясняет каждую клетку.
post-move = **Шакал #{ $game } · ход { $number }** · { $team }
post-take-back = **Шакал #{ $game } · ↩️ ход взят назад с согласия всех**: поле как после хода { $number }.
post-gold = Золото: { $scores }
post-next = Ходит: { $team }{ $deadline }
post-deadline = {" "}· срок { $when }
post-rating = {" "}· рейтинг { $before } → { $after } ({ $change }; ±{ $uncertainty })
post-final-line = { $won ->
    [yes] 🏆 { $team }: { $points ->
        [one] { $points } очко
        [few] { $points } очка
       *[many] { $points } очков
    }
   *[no] { $team }: { $points ->
        [one] { $points } очко
        [few] { $points } очка
       *[many] { $points } очков
    }
}
post-reminder = ⏰ { $who }, ваш ход в игре Шакал #{ $game }: срок { $when }.
post-paused = ⏸️ Игра на паузе; время снова пойдёт { $until }.
# $place: ветка игры (в её названии есть номер игры), иначе game-title.
dm-reminder = ⏰ Ваш ход заканчивается { $when }: { $place }
game-title = Шакал #{ $game }
## Настройки напоминаний (/jackal remind) и ежедневная сводка
remind-summary = **Ваши напоминания**
    • Когда: { $before }
    • Куда: { $via }
    • Тихие часы: { $quiet } (часовой пояс { $zone })
    • Ежедневная сводка: { $digest }
remind-before-game = как задано в каждой игре
remind-before-off = никогда
remind-before-list = за { $list } до конца хода
remind-via-dm = личным сообщением
remind-via-thread = упоминанием в ветке игры
remind-via-auto = личным сообщением, если ЛС открыты, иначе упоминанием в ветке
remind-quiet-span = { $from }–{ $to }
remind-quiet-none = нет
remind-digest-at = в { $time }, вместо напоминаний о каждой игре
remind-digest-off = выключена
digest-title = ☀️ Ваша ежедневная сводка Шакала: { $count ->
    [one] ваш ход в { $count } игре.
    [few] ваш ход в { $count } играх.
    [many] ваш ход в { $count } играх.
   *[other] ваш ход в { $count } игры.
}
digest-line = #{ $game }{ $place }: ваш ход заканчивается { $when }
vacation-on = 🏖️ Вы в отпуске до { $until } ({ $when }). Сроки ваших ходов подождут; отпуск расходуется, только когда срок иначе прошёл бы, а неиспользованное вернётся, когда вы сходите. Осталось в этом году: { $left } из { $allowance }.
vacation-replaced = 🏖️ Этот отпуск заменяет прежний, который заканчивался { $until }: новый начинается сейчас, а неиспользованный остаток прежнего вернулся в ваш запас.
vacation-ended-by-move = 🏖️ С возвращением: ход завершил ваш отпуск. Вернулось в запас: { $given }; осталось в этом году: { $left } из { $allowance }.
vacation-off = Вы не в отпуске. Осталось в этом году: { $left } из { $allowance }.
server-limits = Правила сервера: { $vacation ->
    [one] { $vacation } день
    [few] { $vacation } дня
   *[many] { $vacation } дней
} отпуска в год у каждого игрока; паузы не дольше { $pause ->
    [one] { $pause } дня
   *[other] { $pause } дней
}.
pause-vote-waiting = Ваш голос учтён: пока { $accepted } из { $needed } нужных.
pause-vote-started = Пауза началась и закончится { $until }; до тех пор сроки не идут.
pause-vote-refused = Ваш голос учтён: паузы не будет, игра продолжается.
pause-proposed = Ваше предложение — в ветке игры; у остальных есть сутки, чтобы проголосовать.
undo-waiting = Просьба отправлена: пока согласны { $accepted } из { $needed }. Остальные отвечают кнопками в ветке игры в течение суток; сделанный за это время ход отменяет просьбу.
undo-done = Ход взят назад: поле как было, игра снова на ходу { $number }.
undo-refused = Ваш ответ учтён: ход остаётся, игра продолжается.
extended = В игре #{ $game } у того, кто ходит, теперь больше времени: ход заканчивается { $until }.


## Выбор хода

picker-heading = **Ваш ход** · Шакал #{ $game } · ход { $number } { $mark }
picker-deadline = Срок: { $when }
picker-choose-move = Выберите ход.
picker-choose-piece = Выберите фигуру.
picker-choose-in = { $group }: выберите.
picker-piece-at = { $piece } · { $cell }
picker-ship = Корабль
picker-boat = Лодка на { $cell }
picker-resurrect = Воскрешение
picker-rum = Ром
picker-target = → { $cell } ({ $count ->
    [one] { $count } вариант
    [few] { $count } варианта
   *[many] { $count } вариантов
})
picker-run = { $first } … { $last }
picker-fatal = ☠ **Этот ход смертелен**: { $action }. Всё равно сходить?
picker-played = ✅ Сделан ход: { $action }. Поле опубликовано в ветке игры.
dms-closed = 📪 { $who }, ваши личные сообщения для меня закрыты, поэтому о вашем ходе я напоминаю здесь, а кнопка **Мои ходы** под полем открывает ваши ходы. Чтобы получать их в личные сообщения, разрешите личные сообщения от участников этого сервера (меню сервера → Настройки конфиденциальности) и выберите `/шакал напоминания куда:личное сообщение`; или выберите `/шакал напоминания куда:ветка игры`, чтобы всё оставалось здесь.
picker-game-over = 🏁 Шакал #{ $game }: { $ending }
picker-turn-over = ✅ Ваш ход в игре Шакал #{ $game } (ход { $number }) завершён. Сыграно: { $played }.

## Ответы

board-caption = Шакал #{ $game } после { $number ->
    [0] начала игры
    [one] { $number } шага
   *[other] { $number } шагов
}
games-title = **Ваши игры**
games-none = Вы не участвуете ни в одной игре. Начните новую: `/шакал новая`.
games-line = #{ $game } { $place } · { $state }
games-your-turn = **ваш ход**
status-lobby = ждёт в лобби
status-active = идёт
game-choice = #{ $game } ({ $status })
history-title = **Шакал #{ $game }** · { $count ->
    [one] { $count } шаг
    [few] { $count } шага
   *[many] { $count } шагов
}
history-empty = В игре #{ $game } ещё не было ходов.
history-at = Поле после шага { $number }
history-at-start = Поле в начале игры
history-take-back = ↩️ Взято назад с согласия всех: поле как после шага { $ply }
history-taken-back = (взят назад)
history-menu = Перейти к шагу
replay-caption = **Шакал #{ $game }** · { $count ->
    [one] { $count } шаг
    [few] { $count } шага
   *[many] { $count } шагов
} с самого начала
resign-confirm = Сдаться в игре Шакал #{ $game }? В дуэли победит соперник; в игре на троих или четверых за вас продолжит бот.
resigned = Вы сдались в игре #{ $game }.
reclaimed = Вы снова в игре #{ $game }: место { $team } опять ваше.
kicked = Место { $seat } в игре #{ $game } освобождено.
kicked-bot-plays = Игрок места { $seat } в игре #{ $game } убран: дальше за это место играет бот.
cancelled = Игра #{ $game } отменена.
language-set = Буду говорить с вами: { $language }.
language-server-set = Язык этого сервера теперь: { $language }.
language-auto = язык вашего Discord

help-title = Шакал в Discord
help-credits = Значки клеток: Lorc, Delapouite, Skoll и Willdabeast с сайта game-icons.net, лицензия CC BY 3.0 (перекрашены и растрированы). Шрифт: DejaVu Sans Bold (лицензия Bitstream Vera).
help-body =
    Пираты высаживаются на неизвестный остров, открывают клетки и везут золото на свой корабль. Партия идёт несколько дней: когда ваш ход, приходит личное сообщение.
    
    • **Начать**: `/шакал новая` открывает лобби; игроки нажимают **Играть**, создатель — **Начать**. Для игры откроется ветка.
    • **Ходить**: кнопка **Мои ходы** под полем (или в личных сообщениях), либо `/шакал ход 2 e5 coin`. Ход записывают, как в правилах, английскими словами: coin — монета, bar — слиток, ship — корабль (все слова — в `/шакал правила notation`). Передумали? `/шакал вернуть` просит остальных взять ход назад (пока он ничего не открыл).
    • **Смотреть**: `/шакал доска`, `/шакал история`, `/шакал повтор`, `/шакал игры`, `/шакал правила`.
    • **Управлять**: `/шакал настройки`, `/шакал убрать`, `/шакал отменить`, `/шакал продлить` (создатель игры или управляющий сервером), `/шакал сдаться`.
    • **Ваше время**: `/шакал напоминания` (когда и куда напоминать, тихие часы, ежедневная сводка), `/шакал отпуск 5д`, `/шакал пауза 2д` (остальные голосуют).
    • **Счёт**: `/шакал статистика` (ваша или любого игрока), `/шакал рейтинг` (этого сервера или всех, по периоду и числу игроков).
    • **Язык**: `/шакал язык`.

## Отказы (всегда видны только вам; ничего не изменилось)

err-unknown-game = Игры #{ $game } нет.
err-already-started = Игра #{ $game } уже началась.
err-not-running = Игра #{ $game } ещё не началась.
err-finished = Игра #{ $game } окончена.
err-full = Все места в игре #{ $game } заняты.
err-already-seated = У вас уже есть место в игре #{ $game }.
err-seat-taken = Место { $seat } занято.
err-no-such-seat = В этой игре нет места { $seat }.
err-seat-empty = Место { $seat } свободно.
err-already-bot = За место { $seat } уже играет бот.
err-not-your-game = Вы не играете в игре #{ $game }.
err-nothing-to-reclaim = В игре #{ $game } бот не занимает вашего места: возвращать нечего.
err-not-owner = Это может только создатель игры или участник с правом «Управлять сервером».
err-not-server-manager = Менять настройки сервера может только участник с правом «Управлять сервером».
err-not-your-turn = Сейчас не ваш ход: ходит команда { $team }.
err-stale-view = Это поле устарело: игра уже на ходу { $current }. Нажмите **Мои ходы**, чтобы увидеть текущее.
err-stale-button = Эта кнопка со старого поля: игра уже на ходу { $current }. Нажмите **Мои ходы**, чтобы увидеть текущее.
err-already-played = Этот ход уже сделан.
err-illegal = Так ходить нельзя: { $why }.
err-setting-unknown = Настройки «{ $id }» нет: выберите настройку из списка.
err-setting-value = «{ $value }» не подходит для настройки «{ $setting }»: { $takes }.
takes-turn-time = нужна длительность от 1 минуты до 14 дней, например 12ч или 2д
takes-reminder = нужна длительность короче хода, например 3ч, или «выкл»
takes-range = нужно число от { $min } до { $max }
takes-one-of = можно выбрать { $values }
choice-typed = { $label } (`{ $raw }`)
err-setting-pack = «{ $value }» — не набор клеток, которым можно играть: { $why }.
pack-unknown-tile = клетки «{ $tile }» не бывает
pack-bad-entry = «{ $entry }» записано не как клетка*число, например chest5*20
pack-too-many-special = клетка `{ $tile }` может быть в наборе только одна
pack-too-large = клеток в наборе может быть не больше { $max }, а здесь { $count }
err-setting-tiles = С такими настройками играть нельзя: { $why }.
err-setting-no-map = Из этого набора клеток не сложить остров такого размера: возьмите клеток побольше или поле поменьше.
err-setting-reminder-late = Напоминание за { $reminder } до конца хода пришло бы не позже начала хода: на ход даётся { $turn }. Выберите напоминание ближе к концу хода или ход подлиннее.
err-setting-half-given = Укажите и настройку, и её новое значение (или ничего — чтобы увидеть все).
err-bad-extension = Добавить можно от 1 часа до 14 дней, например 1д или 6ч.
err-limit-too-long = Не больше { $max ->
    [one] { $max } дня
   *[other] { $max } дней
}, а не { $days }.
err-seats-empty = { $count ->
    [one] Место { $seats } ещё свободно
   *[other] Места { $seats } ещё свободны
}: подождите игроков или добавьте ботов.
err-no-game-here = У вас нет игры в этом канале. Укажите её в параметре `игра` или посмотрите `/шакал игры`.
err-which-game = Вы играете здесь в нескольких играх ({ $games }): укажите одну в параметре `игра`.
err-not-in-server = Эта команда работает в канале сервера, а не в личных сообщениях.
err-missing-permissions = Здесь я не могу вести игру: в этом канале у меня нет прав: { $permissions }. Управляющий сервером может выдать их в настройках канала.
err-not-yours = Эта кнопка не ваша.
err-unknown-component = Эта кнопка больше не работает. Воспользуйтесь `/шакал ходы` или `/шакал игры`.
err-resign-unconfirmed = Чтобы сдаться, используйте `/шакал сдаться` и подтвердите там.
err-too-long = Значение `{ $option }` слишком длинное.
err-out-of-range = Значение `{ $option }` вне допустимых пределов (от 0 до { $max }).
err-bad-option = Одно из указанных значений не подходит.
err-no-topic = Раздела правил «{ $topic }» нет. Наберите `/шакал правила` и выберите из списка.
err-closing = Шакал перезапускается; попробуйте через минуту.
err-internal = У меня что-то пошло не так; ничего не изменилось. Попробуйте ещё раз.
err-unknown-zone = Часового пояса «{ $zone }» нет. Укажите название вроде Europe/Moscow или Asia/Yekaterinburg (список подсказывает их при вводе).
err-bad-clock = «{ $text }» — не время суток: напишите его как 23:00 или 7:30.
err-bad-quiet = «{ $text }» — не промежуток тихих часов: напишите его как 23:00-08:00.
err-quiet-whole-day = Тихие часы от одного и того же времени до него же заняли бы весь день: выберите два разных времени или выключите напоминания.
err-bad-offset = «{ $text }» — не срок до конца хода: напишите его как 12ч, 1ч или 30мин (не больше 14д).
err-too-many-reminders = Это { $count ->
    [one] { $count } напоминание
    [few] { $count } напоминания
   *[many] { $count } напоминаний
}, а можно не больше { $max }.
err-vacation-too-long = Осталось отпуска в этом году: { $left } (из { $days ->
    [one] { $days } дня
   *[other] { $days } дней
}): попросите не больше.
err-not-on-vacation = Вы не в отпуске.
err-bad-length = «{ $text }» — не продолжительность: напишите её как 5д или 36ч (не меньше часа).
err-too-short = «{ $text }» — слишком коротко: самое меньшее — { $min }.
err-pause-too-long = Пауза на этом сервере может длиться не больше { $days ->
    [one] { $days } дня
   *[other] { $days } дней
} (это задаёт управляющий сервером командой `/шакал сервер`).
err-already-paused = Игра уже на паузе; пауза кончится { $until }. Предложите новую, когда она закончится.
err-pause-proposed = Пауза в игре #{ $game } уже ждёт голосов: ответьте кнопками под предложением.
err-no-pause-proposed = В игре #{ $game } нет паузы, ждущей голосов (её уже решили или срок голосования прошёл).
err-already-voted = Вы уже голосовали за эту паузу в игре #{ $game }.
err-no-deadline = В игре #{ $game } сейчас ничей срок не идёт (ходит бот).
err-undo-nothing = Вам нечего брать назад: с начала игры или с прошлого возврата вы не ходили.
err-undo-mid-move = Ход сыгран наполовину (ждёт выбора): сначала закончите его, потом просите.
err-undo-bot-played = Этот ход не взять назад: после него ходил бот или истёк срок, а ход бота ничей, брать его назад некому.
err-undo-revealed = Этот ход не взять назад: { $whose ->
    [yours] он
   *[after] ход после него
} { $what ->
    [lighthouse] показал клетки с маяка
    [earthquake] вызвал землетрясение
   *[tile] открыл клетку
}, а увиденное снова не спрятать.
err-undo-proposed = Просьба взять ход назад в игре #{ $game } уже ждёт ответов: ответьте кнопками под ней.
err-no-undo-proposed = В игре #{ $game } нет просьбы взять ход назад, ждущей ответов (её решили, истёк срок или с тех пор был ход).
err-undo-voted = Вы уже согласились взять этот ход назад в игре #{ $game }.

illegal-syntax = ход записан непонятно для игры (например: `2 e5 coin`, `ship f1`)
illegal-ambiguous = под запись подходит несколько ходов; укажите клетку
illegal-game-over = игра окончена
illegal-choice-pending = сначала закончите выбор: укажите клетку
illegal-no-choice-pending = сейчас нечего выбирать
illegal-bad-choice = такого варианта в этом выборе нет
illegal-no-such-unit = у вашей команды нет живой фигуры с таким номером
illegal-unit-disabled = эта фигура пьяна, в ловушке или застряла и не может ходить
illegal-unreachable = до этой клетки фигуре не дойти
illegal-enemy-vessel = на вражеский корабль ходить нельзя
illegal-bad-cargo = такого груза там нет, или фигуре его не унести
illegal-enemy-fortress = эту крепость занимает противник
illegal-enemy-missionary = там стоит вражеский миссионер
illegal-cannot-attack = эта фигура не может нападать
illegal-cargo-forbidden = с грузом нельзя на закрытую клетку, в крепость, в джунгли и на противника
illegal-vessel-cannot-move = корабль туда не пройдёт
illegal-no-resurrection = воскресить некого или негде
illegal-rum-forbidden = здесь сейчас нельзя подать ром
illegal-detail-no-text = ничего не написано
illegal-detail-unknown-start = «{ $word }» — не фигура (1, 2, 3, b, f, m), не `ship`, `boat`, `res`, `rum` и не клетка
illegal-detail-not-a-cell = «{ $word }» — не клетка этого поля
illegal-detail-not-an-item = «{ $word }» — не предмет (coin, bar, ball, boat, cart)
illegal-detail-too-many-words = «{ $word }» — лишнее слово
illegal-detail-cell-missing = не указана клетка
illegal-detail-drunk = эта фигура пьяна
illegal-detail-trapped = эта фигура в ловушке
illegal-detail-stuck = эта фигура застряла в туннеле
illegal-detail-no-boat = в море можно шагнуть, только спуская лодку
illegal-detail-carries-nothing = эта фигура ничего не носит
illegal-detail-cargo-not-there = этих предметов нет там, где стоит фигура
illegal-detail-cargo-too-much = фигура носит один предмет или тачку и ещё два
illegal-detail-cargo-fog = с грузом нельзя на закрытую клетку
illegal-detail-cargo-fortress = с грузом нельзя войти в крепость
illegal-detail-cargo-jungle = с грузом нельзя войти в джунгли
illegal-detail-cargo-enemies = с грузом нельзя нападать
illegal-detail-no-crew = на борту нет никого, кто мог бы плыть
illegal-detail-no-rum = в запасе нет рома
illegal-detail-weed-turn = в ход шайтан-травы ром не подают
illegal-detail-no-server = рядом нет вашей фигуры, которая могла бы подать ром
illegal-detail-rum-jungle = в джунглях ром не подают
illegal-detail-rum-enemy = на последней ступени лабиринта стоит враг
illegal-detail-rum-wasted = ром там ничего не изменит

perm-view-channel = Просматривать канал
perm-send-messages = Отправлять сообщения
perm-send-in-threads = Отправлять сообщения в ветках
perm-create-threads = Создавать публичные ветки
perm-attach-files = Прикреплять файлы
perm-embed-links = Встраивать ссылки
perm-read-history = Читать историю сообщений

## Статистика и рейтинг (/шакал статистика, /шакал рейтинг)

stats-none = У { $user } ещё нет законченных рейтинговых игр на этом сервере.
stats-title = 📊 **Статистика { $user }** на этом сервере
stats-rating = Рейтинг **{ $rating }** (±{ $uncertainty }) · место **{ $place }** из { $people }
stats-rating-everywhere = {" "}· на всех серверах { $rating }
stats-record = Игр **{ $games }** · побед **{ $wins }** ({ $percent } %)
stats-move-time = Время на ход: в среднем { $mean } · медиана { $median } (по { $count ->
    [one] { $count } ходу
   *[other] { $count } ходам
})
stats-missed = Пропущено сроков: { $count }
stats-favourite = Частый соперник: { $who } ({ $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
})
stats-best = Чаще всех проигрывает вам: { $who } ({ $beaten } из { $games })
stats-bot = 🤖 бот «{ $level }»
stats-gold = Золота доставлено: { $gold } ({ $average } за игру) · пиратов потеряно: { $pirates }
stats-gold-counted = {" "}(по { $count ->
    [one] { $count } последней игре: старые игры этого не сохранили
   *[other] { $count } последним играм: старые игры этого не сохранили
})
stats-chart-title = Рейтинг после каждой игры
stats-chart-games = игры

top-title = 🏆 **Рейтинг** · { $whose } · { $period } · { $format }
top-whose-here = этот сервер
top-whose-everywhere = все серверы
top-period-all = за всё время
top-period-month = за этот месяц
top-period-week = за эту неделю
top-format-any = все игры
top-format-duel = дуэли
top-format-three = 3 игрока
top-format-four = 4 игрока
top-format-pairs = двое на двое
top-line = { $medal }**{ $place }.** { $user } — **{ $points }** · { $games ->
    [one] { $games } игра
    [few] { $games } игры
   *[many] { $games } игр
}, { $wins ->
    [one] { $wins } победа
    [few] { $wins } победы
   *[many] { $wins } побед
}
top-page = Страница { $page } из { $pages } · { $people ->
    [one] { $people } игрок
    [few] { $people } игрока
   *[many] { $people } игроков
}
top-you = Вы: { $line }
top-not-you = Вас пока нет в этом рейтинге: закончите рейтинговую игру.
top-empty = В этом рейтинге пока никого нет: он заполнится, когда закончатся рейтинговые игры.
top-button-here = Этот сервер
top-button-everywhere = Все серверы
