# Игра словами: фигуры, предметы, клетки, события хода, итоги и объявления.
# Используется и ботом, и игрой в терминале. Переменные: $unit, $team (уже словами),
# $cell (клетка, например e5), $items (уже словами), числа ($count, $points, …).
# Фразы построены так, чтобы не зависеть от рода: «Пират 2 (…): прыжок на e7».

team-numbered = команда { $team }
list-and = { $init } и { $last }
list-or = { $init } или { $last }
quoted = «{ $text }»

## Фигуры

unit-pirate = Пират { $n }
unit-ben = Бен Ганн
unit-friday = Пятница
unit-missionary = Миссионер
unit-of-team = { $unit } ({ $team })

## Предметы

item-cart = { $count ->
    [one] { $count } тачка
    [few] { $count } тачки
   *[many] { $count } тачек
}
item-coin = { $count ->
    [one] { $count } монета
    [few] { $count } монеты
   *[many] { $count } монет
}
item-bar = { $count ->
    [one] { $count } слиток
    [few] { $count } слитка
   *[many] { $count } слитков
}
item-ball = { $count ->
    [one] { $count } ядро
    [few] { $count } ядра
   *[many] { $count } ядер
}
item-boat = { $count ->
    [one] { $count } лодка
    [few] { $count } лодки
   *[many] { $count } лодок
}
items-none = ничего

## Клетки

tile-empty = пустая клетка
tile-arrow = стрелка
tile-horse = лошадь
tile-ice = лёд
tile-maze = { $steps ->
    [one] лабиринт: { $steps } ступень
    [few] лабиринт: { $steps } ступени
   *[many] лабиринт: { $steps } ступеней
}
tile-trap = ловушка
tile-crocodile = крокодил
tile-cannibal = людоед
tile-fortress = крепость
tile-resfort = крепость с аборигенкой
tile-chest = { $coins ->
    [one] сундук: { $coins } монета
    [few] сундук: { $coins } монеты
   *[many] сундук: { $coins } монет
}
tile-bullion = золотой слиток
tile-barrel = бочка рома
tile-cannon = пушка
tile-balloon = воздушный шар
tile-plane = самолёт
tile-lighthouse = маяк
tile-bengunn = Бен Ганн
tile-friday = Пятница
tile-missionary = миссионер
tile-bottles = { $count ->
    [one] { $count } бутылка рома
    [few] { $count } бутылки рома
   *[many] { $count } бутылок рома
}
tile-cave = пещера
tile-earthquake = землетрясение
tile-jungle = джунгли
tile-weed = шайтан-трава
tile-caramba = карамба
tile-boat = лодка
tile-cart = тачка
tile-ball = ядро

## События хода

ev-moved-step = { $unit }: ход на { $cell }
ev-moved-jump = { $unit }: прыжок на { $cell }
ev-moved-flight = { $unit }: перелёт на { $cell }
ev-moved-shot = { $unit }: выстрел пушки — на { $cell }
ev-moved-balloon = { $unit }: на воздушном шаре — на { $cell }
ev-moved-tunnel = { $unit }: через туннель — на { $cell }
ev-moved-advance = { $unit }: на ступень дальше в лабиринте ({ $cell })
ev-opened = Открыта клетка { $cell }: { $tile }
ev-revealed = Маяк открывает { $cell }: { $tile }
ev-shelled = Ядро открывает { $cell }: { $tile }
ev-recruited = { $unit }: присоединяется к команде на { $cell }
ev-converted = { $unit }: обращён ромом
ev-bottles = { $team } находит { $bottles ->
    [one] { $bottles } бутылку рома
    [few] { $bottles } бутылки рома
   *[many] { $bottles } бутылок рома
}
ev-weed = { $team } находит шайтан-траву на { $cell }: в течение { $turns ->
    [one] { $turns } хода
   *[other] { $turns } ходов
} каждой командой командует предыдущий игрок
ev-retreated = { $unit }: на судно ({ $cell })
ev-caramba = Карамба! Все, кто на берегу, бегут на корабли
ev-stuck = { $unit }: застрял в туннеле под { $cell }
ev-released = { $unit }: выходит из туннеля на { $cell }
ev-quaked = Землетрясение меняет местами { $a } и { $b }
ev-launched = { $team } спускает лодку на { $cell }
ev-fired = { $team } стреляет из пушки на клетке { $cell }
ev-vessel-hit = Попадание в судно ({ $team }) на { $cell }: { $hits ->
    [one] { $hits } попадание
    [few] { $hits } попадания
   *[many] { $hits } попаданий
}
ev-vessel-sunk = { $boat ->
    [yes] Лодка
   *[no] Корабль
} ({ $team }) тонет на { $cell }
ev-eliminated = { $team }: не осталось судов, команда выбывает
ev-rum-served = { $team } подаёт ром на { $cell }
ev-appeared = На { $cell }: { $items }
ev-cargo-returned = Груз вернулся на { $cell }: { $items }
ev-lost = Потеряно на { $cell }: { $items }
ev-delivered = { $team } получает { $points ->
    [one] { $points } очко
    [few] { $points } очка
   *[many] { $points } очков
}
ev-knocked-out = { $unit }: выбит и отправлен на судно ({ $cell })
ev-joined = { $unit } переходит на сторону: { $team }
ev-drunk = { $unit }: пьян
ev-trapped = { $unit }: попал в ловушку
ev-freed = { $unit }: свободен
ev-seated = { $unit }: занял место в самолёте
ev-vessel-moved = Судно ({ $team }) — на { $cell }
ev-resurrected = { $unit }: возвращён к жизни на { $cell }
ev-skipped = { $team } не может ходить и пропускает ход
ev-passed = { $team }: время вышло, ход пропущен

death-drowned = { $unit }: утонул на { $cell }
death-enemy-vessel = { $unit }: погиб на вражеском судне ({ $cell })
death-forbidden = { $unit }: занесло туда, куда нельзя, — погиб на { $cell }
death-restriction = { $unit }: нарушил запрет с грузом — погиб на { $cell }
death-cannibal = { $unit }: съеден людоедом на { $cell }
death-loop = { $unit }: пошёл по кругу — погиб на { $cell }
death-nowhere = { $unit }: некуда идти — погиб на { $cell }
death-no-vessel = { $unit }: нет судна, куда вернуться, — погиб на { $cell }
death-cannonball = { $unit }: убит ядром на { $cell }
death-rum = { $unit }: выпил ром — погиб на { $cell }
death-friday-missionary = { $unit }: погиб на { $cell } — встретились Пятница и миссионер
death-eliminated = { $unit }: выбыл вместе с командой ({ $cell })
death-sunk = { $unit }: утонул вместе с судном на { $cell }

## Выборы посреди хода

choice-exit = Выберите, куда идти дальше со стрелки.
choice-jump = Выберите, куда прыгнуть.
choice-flight = Выберите, куда лететь.
choice-cave = Выберите пещеру, из которой выйти.
choice-reveal = Выберите закрытую клетку, которую открыть.
choice-quake = Выберите клетку для землетрясения.

## Итоги

end-reason-uncatchable = лидера уже не догнать
end-reason-no-moves = у соперника не осталось ходов
end-reason-sunk = корабли потоплены
end-reason-disabled = никто больше не может ходить
end-reason-stall = слишком долго ничего не открывалось, а золото не доставлялось и не пропадало
end-won = Игра окончена: { $count ->
    [one] победитель
   *[other] победители
} — { $teams } ({ $reason }).
end-draw = Игра окончена: ничья — { $teams } ({ $reason }).
end-resigned = { $team } сдаётся: { $count ->
    [one] побеждает
   *[other] побеждают
} { $winners }.
end-timed-out = { $team } не успевает сделать ход, и по правилам игры это поражение: { $count ->
    [one] побеждает
   *[other] побеждают
} { $winners }.
end-cancelled = Игра отменена.
end-thread-deleted = Ветку игры удалили, поэтому игра сохранена в архиве в том виде, в каком была.

## Объявления

notice-kicked = ℹ️ { $team }: игрока убрали из игры, дальше играет бот.
notice-resigned = ℹ️ { $team } сдаётся, дальше играет бот.
notice-resigned-late = ℹ️ { $team }: время вышло, и по правилам игры место сдаётся; дальше играет бот.
notice-timed-out = ℹ️ { $team }: время вышло, ход сделал бот.
notice-passed = ℹ️ { $team }: время вышло, ход пропущен без действия.
notice-taken-over = ℹ️ { $team } { $missed ->
    [1] пропускает срок хода
    [one] пропускает срок хода { $missed } раз подряд
    [few] пропускает срок хода { $missed } раза подряд
   *[many] пропускает срок хода { $missed } раз подряд
}: теперь за этого игрока играет бот. Вернуть место можно кнопкой «Вернуться на своё место» ниже.
notice-reclaimed = ℹ️ { $team }: игрок вернулся и снова занимает своё место.
notice-away = 🏖️ { $team } в отпуске до { $until }: сроки ходов этого игрока подождут.
notice-held = 🏖️ { $team } в отпуске: теперь ход заканчивается { $deadline }.
notice-back = ℹ️ { $team }: отпуск окончен, игрок снова в игре.
notice-pause-proposed = ⏸️ { $team } предлагает поставить игру на паузу на { $length }. Остальные игроки голосуют кнопками ниже (в течение суток).
notice-pause-started = ⏸️ Игра на паузе до { $until }: до тех пор сроки не идут (ходить по-прежнему можно).
notice-pause-refused = ⏸️ { $team } против паузы: игра продолжается.
notice-pause-lapsed = ⏸️ { $team }: предложение паузы за сутки не набрало голосов, игра продолжается.
notice-pause-over = ▶️ Пауза окончена: время снова идёт.
notice-extended = ⏳ { $team }: больше времени на ход, теперь он заканчивается { $deadline }.
notice-undo-proposed = ↩️ { $team } просит взять назад свой последний ход{ $others ->
    [0] {""}
    [one] {" "}и ход после него
    [few] {" "}и { $others } хода после него
   *[other] {" "}и { $others } ходов после него
}. Остальные игроки отвечают кнопками ниже (в течение суток); сделанный за это время ход отменяет просьбу.
notice-undo-accepted = ↩️ Все согласны: { $moves ->
    [one] { $moves } ход взят
    [few] { $moves } хода взяты
   *[other] { $moves } ходов взяты
} назад, и снова ходит { $team }. { $moves ->
    [one] Ход остаётся
   *[other] Ходы остаются
} в истории с пометкой «взят назад».
notice-undo-refused = ↩️ { $team } против: ход остаётся, игра продолжается.
notice-undo-lapsed = ↩️ { $team }: за сутки не все ответили на просьбу взять ход назад, игра продолжается как есть.
notice-undo-voided = ↩️ { $team }: просьба взять ход назад больше не действует — ход сделан раньше, чем ответили все.

## Действия словами (списки возможных ходов)

action-with = , груз: { $items }
action-move = { $unit } → { $cell }{ $cargo }
action-ship = Корабль → { $cell }
action-boat = Лодка { $from } → { $cell }
action-resurrect = Воскресить пирата в крепости на { $cell }
action-rum = Подать ром на { $cell }
action-pass = Пропустить ход
action-choose = → { $cell }{ $cargo }

## Слова на картинке доски

board-move = Ход
board-game-over = Конец игры
board-draw = ничья
